/**
 * The Questions card: built-in and own questions in stored order, each with its switch, Edit,
 * move up / down and Remove; Add question and Import from Discord Onboarding; the editor below.
 */
import { type PersonalityRolesState, QUESTIONS_MAX } from '@spacecadet/contract';
import { errorText } from '../../lib/api-error.ts';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import { type QuestionView, questionViews } from './personality-model.ts';
import { QuestionEditor } from './QuestionEditor.tsx';
import { newQuestionDraft, questionDraft } from './question-editor-model.ts';
import { RemoveQuestionDialog } from './RemoveQuestionDialog.tsx';
import type { PersonalityActions } from './usePersonalityActions.ts';
import type { QuestionActions } from './useQuestionActions.ts';
import { useQuestionEditing } from './useQuestionEditing.ts';

interface QuestionsCardProps {
  guildId: string;
  botInGuild: boolean;
  data: PersonalityRolesState;
  actions: PersonalityActions;
  questions: QuestionActions;
}

export function QuestionsCard({ guildId, botInGuild, data, actions, questions }: QuestionsCardProps) {
  const { busy } = actions;
  const { save, order, remove, importOnboarding, imported } = questions;
  const views = questionViews(data.questions);
  const { editing, setEditing, openEditor, onSave, removal, setRemoval, askRemove, confirmRemove } =
    useQuestionEditing(actions, questions);
  // Every question of the server in stored order (hidden ones too): the order route wants them all.
  const move = (questionId: number, by: -1 | 1) => {
    const ids = data.questions.map((question) => question.question_id);
    const from = ids.indexOf(questionId);
    const to = from + by;
    if (from < 0 || to < 0 || to >= ids.length) return;
    [ids[from], ids[to]] = [ids[to] as number, ids[from] as number];
    order.mutate(ids);
  };

  return (
    <>
      <section className="card" aria-labelledby="questions-title">
        <div className="role-list-head">
          <h2 id="questions-title">Question Categories</h2>
          <span className="muted small">
            {views.length} of {QUESTIONS_MAX}
          </span>
        </div>
        <div className="button-row">
          <LimitedButton
            className="btn btn-primary btn-sm"
            full={data.questions.length >= QUESTIONS_MAX}
            reason={`A server has at most ${QUESTIONS_MAX} questions.`}
            onClick={() => openEditor({ draft: newQuestionDraft() })}
          >
            Add question
          </LimitedButton>
          <button
            type="button"
            className="btn btn-secondary btn-sm"
            disabled={importOnboarding.isPending || !botInGuild}
            onClick={() => importOnboarding.mutate()}
          >
            {importOnboarding.isPending ? 'Importing…' : 'Import from Discord Onboarding'}
          </button>
        </div>
        <div role="status">{imported ? <p className="small import-result">{imported}</p> : null}</div>
        {views.length === 0 ? <p className="muted">No questions yet: add one.</p> : null}
        <ul className="question-list question-rows">
          {views.map((question, index) => (
            <QuestionRow
              key={question.id}
              question={question}
              first={index === 0}
              last={index === views.length - 1}
              busy={busy}
              actions={actions}
              ordering={order.isPending}
              removing={remove.isPending}
              onMove={(by) => move(question.id, by)}
              onEdit={() =>
                openEditor({
                  draft: questionDraft(question.question, question.title, question.description),
                  stored: question,
                })
              }
              onRemove={() => void askRemove(question)}
            />
          ))}
        </ul>
      </section>
      {editing ? (
        <QuestionEditor
          // A new draft (another question) starts a new editor.
          key={editing.draft.questionId ?? 'new'}
          guildId={guildId}
          botInGuild={botInGuild}
          initial={editing.draft}
          saving={save.isPending}
          refusal={save.isError ? errorText(save.error) : null}
          onSave={(draft) => void onSave(draft)}
          onCancel={() => setEditing(null)}
        />
      ) : null}
      {removal ? (
        <RemoveQuestionDialog
          removal={removal}
          busy={remove.isPending}
          onChange={setRemoval}
          onCancel={() => setRemoval(null)}
          onConfirm={confirmRemove}
        />
      ) : null}
    </>
  );
}

/** One question of the list: what it is, its move, Edit, Remove buttons and its switch. */
function QuestionRow({
  question,
  first,
  last,
  busy,
  actions,
  ordering,
  removing,
  onMove,
  onEdit,
  onRemove,
}: {
  question: QuestionView;
  first: boolean;
  last: boolean;
  busy: boolean;
  actions: PersonalityActions;
  ordering: boolean;
  removing: boolean;
  onMove: (by: -1 | 1) => void;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { toggle, confirmDeleteRoles } = actions;
  return (
    <li className="question-item">
      {/* The switch first and beside the title (also on a phone): it is what a row is mostly for. */}
      <div className="question-head">
        <h3>{question.title}</h3>
        <button
          type="button"
          className={`btn btn-sm ${question.enabled ? 'btn-primary' : 'btn-secondary'}`}
          aria-pressed={question.enabled}
          aria-label={`${question.title}: ${question.enabled ? 'Enabled' : 'Disabled'}`}
          disabled={toggle.isPending}
          onClick={() => toggle.mutate({ type: question.type, enabled: !question.enabled })}
        >
          {question.enabled ? 'Enabled' : 'Disabled'}
        </button>
      </div>
      <div className="question-text">
        <p className="muted small">{question.description}</p>
        <p className="small">
          {question.roleCount} roles · {question.multi ? 'Multi-select' : 'Single choice'}
          <span className="muted"> · {question.own ? 'Your question' : 'Built-in'}</span>
        </p>
        {/* Kept when the admin chose to: a disabled category's roles can still go. */}
        {!question.enabled && question.createdRoles > 0 ? (
          <button
            type="button"
            className="link-button small"
            disabled={busy}
            onClick={() => confirmDeleteRoles(question.type, question.title, question.createdRoles)}
          >
            Delete its {question.createdRoles} roles in Discord
          </button>
        ) : null}
      </div>
      <div className="question-controls">
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          aria-label={`Edit ${question.title}`}
          onClick={onEdit}
        >
          Edit
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`Move ${question.title} up`}
          disabled={first || ordering}
          onClick={() => onMove(-1)}
        >
          ↑
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`Move ${question.title} down`}
          disabled={last || ordering}
          onClick={() => onMove(1)}
        >
          ↓
        </button>
        <button
          type="button"
          className="btn btn-ghost btn-sm"
          aria-label={`Remove ${question.title}`}
          disabled={removing}
          onClick={onRemove}
        >
          Remove
        </button>
      </div>
    </li>
  );
}
