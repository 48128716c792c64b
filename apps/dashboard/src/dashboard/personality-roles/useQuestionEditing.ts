/**
 * Which question the editor holds, and the confirmations around it: saving an edit that removes
 * options whose roles the bot made, and removing a question, each counted from the insights.
 */
import { useState } from 'react';
import type { QuestionView } from './personality-model.ts';
import {
  optionHolders,
  type QuestionDraft,
  questionHolders,
  removedCreatedOptions,
  removeOptionsConfirmText,
} from './question-editor-model.ts';
import type { Removal } from './RemoveQuestionDialog.tsx';
import type { PersonalityActions } from './usePersonalityActions.ts';
import type { QuestionActions } from './useQuestionActions.ts';

export function useQuestionEditing(actions: PersonalityActions, questions: QuestionActions) {
  const { confirmation } = actions;
  const { save, remove, countHolders } = questions;
  const [editing, setEditing] = useState<{ draft: QuestionDraft; stored?: QuestionView } | null>(null);
  const [removal, setRemoval] = useState<Removal | null>(null);
  // A refusal belongs to the editor it was said in.
  const openEditor = (next: { draft: QuestionDraft; stored?: QuestionView }) => {
    save.reset();
    setEditing(next);
  };

  const finishSave = (draft: QuestionDraft) => save.mutateAsync(draft).then(() => setEditing(null));
  const onSave = async (draft: QuestionDraft) => {
    const removed = removedCreatedOptions(editing?.stored?.question, draft);
    if (removed.length === 0 || draft.questionId === undefined) {
      finishSave(draft).catch(() => undefined);
      return;
    }
    const insights = await countHolders();
    const holders = optionHolders(
      insights,
      draft.questionId,
      removed.map((option) => option.option_id),
    );
    confirmation.ask({
      title: `Remove ${removed.length === 1 ? 'an option' : `${removed.length} options`} and ${removed.length === 1 ? 'its role' : 'their roles'}?`,
      question: removeOptionsConfirmText(draft.title.trim(), removed, holders),
      confirmLabel: 'Save and delete',
      undoNote: null,
      onConfirm: () => finishSave(draft).catch(() => undefined),
    });
  };
  const askRemove = async (view: QuestionView) => {
    const insights = await countHolders();
    setRemoval({ view, holders: questionHolders(insights, view.id), deleteRoles: false });
  };

  const confirmRemove = () => {
    if (!removal) return undefined;
    return remove
      .mutateAsync({ questionId: removal.view.id, deleteRoles: removal.deleteRoles })
      .then(
        () => {
          if (editing?.draft.questionId === removal.view.id) setEditing(null);
        },
        () => undefined,
      )
      .finally(() => setRemoval(null));
  };
  return { editing, setEditing, openEditor, onSave, removal, setRemoval, askRemove, confirmRemove };
}
