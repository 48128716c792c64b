/** The question editor: title, description, single choice or multi-select, and the options; with its preview. */
import {
  type GuildRole,
  QUESTION_DESCRIPTION_MAX,
  QUESTION_MAX_OPTIONS,
  QUESTION_TITLE_MAX,
} from '@spacecadet/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { LimitedButton } from '../shared/LimitedButton.tsx';
import { PersonalityPreview } from './PersonalityPreview.tsx';
import { QuestionOptionRow } from './QuestionOptionRow.tsx';
import {
  emptyOptionDraft,
  LIMITS_NOTE,
  OPTION_LIMIT_NOTE,
  type OptionDraft,
  type QuestionDraft,
} from './question-editor-model.ts';

export function QuestionEditor({
  guildId,
  botInGuild,
  initial,
  saving,
  refusal,
  onSave,
  onCancel,
}: {
  guildId: string;
  botInGuild: boolean;
  initial: QuestionDraft;
  saving: boolean;
  /** Why the last save was refused (the API's sentence, also in the page's error box). */
  refusal: string | null;
  onSave: (draft: QuestionDraft) => void;
  onCancel: () => void;
}) {
  const [draft, setDraft] = useState(initial);
  const titleRef = useRef<HTMLInputElement>(null);
  // The editor opens where the admin is not looking: the focus goes to its first field.
  useEffect(() => titleRef.current?.focus(), []);
  const roles = useGuildRoles(guildId);
  // @everyone is the guild's id; an integration's role cannot be given by anyone.
  const givable = (roles.data?.roles ?? []).filter((role: GuildRole) => !role.managed && role.id !== guildId);
  const setOptions = (options: OptionDraft[]) => setDraft({ ...draft, options });
  const move = (index: number, by: -1 | 1) => {
    const next = [...draft.options];
    const [moved] = next.splice(index, 1);
    if (!moved) return;
    next.splice(index + by, 0, moved);
    setOptions(next);
  };
  const isNew = draft.questionId === undefined;
  const heading = isNew ? 'New question' : `Edit ${initial.title || 'question'}`;
  return (
    <div className="question-editor-grid">
      <section className="card question-editor" aria-labelledby="question-editor-title">
        <h2 id="question-editor-title">{heading}</h2>
        <p className="muted small">{LIMITS_NOTE}</p>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            onSave(draft);
          }}
        >
          <QuestionFields draft={draft} titleRef={titleRef} onChange={setDraft} />
          <div className="role-list-head">
            <h3 id="question-options-title">Options</h3>
            <span className="muted small">
              {draft.options.length} of {QUESTION_MAX_OPTIONS}
            </span>
          </div>
          {draft.options.length === 0 ? (
            <p className="muted">No options yet: add one for each answer.</p>
          ) : null}
          <ol className="question-options" aria-labelledby="question-options-title">
            {draft.options.map((option, index) => (
              <QuestionOptionRow
                key={option.key}
                guildId={guildId}
                botInGuild={botInGuild}
                option={option}
                index={index}
                count={draft.options.length}
                roles={givable}
                onChange={(changed) => setOptions(draft.options.map((o, i) => (i === index ? changed : o)))}
                onMove={(by) => move(index, by)}
                onRemove={() => setOptions(draft.options.filter((_, i) => i !== index))}
              />
            ))}
          </ol>
          <div className="button-row">
            <LimitedButton
              className="btn btn-secondary btn-sm"
              onClick={() => setOptions([...draft.options, emptyOptionDraft()])}
              full={draft.options.length >= QUESTION_MAX_OPTIONS}
              reason={OPTION_LIMIT_NOTE}
            >
              Add option
            </LimitedButton>
          </div>
          {/* Beside the button too: the page's error box may be far above a long editor. */}
          {refusal ? <p className="role-row-problem">Not saved: {refusal}</p> : null}
          <div className="button-row question-editor-buttons">
            <button type="submit" className="btn btn-primary" disabled={saving}>
              {saving ? 'Saving…' : isNew ? 'Create question' : 'Save question'}
            </button>
            <button type="button" className="btn btn-secondary" disabled={saving} onClick={onCancel}>
              Cancel
            </button>
          </div>
        </form>
      </section>
      <PersonalityPreview draft={draft} />
    </div>
  );
}

/** The question's own fields: its title, description and single choice or multi-select. */
function QuestionFields({
  draft,
  titleRef,
  onChange,
}: {
  draft: QuestionDraft;
  titleRef: RefObject<HTMLInputElement | null>;
  onChange: (draft: QuestionDraft) => void;
}) {
  const setDraft = onChange;
  return (
    <>
      <div className="field">
        <label htmlFor="question-title">Title</label>
        <input
          ref={titleRef}
          id="question-title"
          className="input"
          value={draft.title}
          aria-describedby="question-title-count"
          onChange={(event) => setDraft({ ...draft, title: event.target.value })}
        />
        <span id="question-title-count" className="muted small">
          {draft.title.trim().length} of {QUESTION_TITLE_MAX} characters
        </span>
      </div>
      <div className="field">
        <label htmlFor="question-description">Description</label>
        <textarea
          id="question-description"
          className="input"
          rows={2}
          value={draft.description}
          aria-describedby="question-description-count"
          onChange={(event) => setDraft({ ...draft, description: event.target.value })}
        />
        <span id="question-description-count" className="muted small">
          {draft.description.trim().length} of {QUESTION_DESCRIPTION_MAX} characters
        </span>
      </div>
      <fieldset className="field question-kind">
        <legend>Members pick</legend>
        <label>
          <input
            type="radio"
            name="question-kind"
            checked={!draft.multi}
            onChange={() => setDraft({ ...draft, multi: false })}
          />{' '}
          Single choice
        </label>
        <label>
          <input
            type="radio"
            name="question-kind"
            checked={draft.multi}
            onChange={() => setDraft({ ...draft, multi: true })}
          />{' '}
          Multi-select
        </label>
      </fieldset>
    </>
  );
}
