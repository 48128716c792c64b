/** The cards of a server with personality roles: Actions, and the Question Categories with their switches. */
import type { PersonalityRolesState } from '@spacecadet/contract';
import type { ReactNode } from 'react';
import { previewCall, UNDO_NOTE } from '../shared/ConfirmDialog.tsx';
import { LastRefreshNote } from './LastRefreshNote.tsx';
import { questionViews, REFRESH_NOTE, resetConfirmText } from './personality-model.ts';
import type { PersonalityActions } from './usePersonalityActions.ts';

interface ActionsCardProps {
  guildId: string;
  data: PersonalityRolesState;
  botInGuild: boolean;
  actions: PersonalityActions;
  needsChannel: (then: () => void) => () => void;
  jobView: ReactNode;
}

export function ActionsCard({ guildId, data, botInGuild, actions, needsChannel, jobView }: ActionsCardProps) {
  const { busy, generate, post, reset, confirmation } = actions;
  return (
    <section className="card actions-card" aria-labelledby="p-actions-title">
      <h2 id="p-actions-title">Actions</h2>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || !botInGuild}
          onClick={needsChannel(() => generate.mutate())}
        >
          Generate Roles
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          disabled={busy || !botInGuild}
          onClick={needsChannel(() => post.mutate())}
        >
          Post / Update Messages
        </button>
        <button
          type="button"
          className="btn btn-danger"
          disabled={busy}
          onClick={() =>
            confirmation.ask({
              title: 'Reset personality roles?',
              question: resetConfirmText(data.questions),
              confirmLabel: 'Reset Personality',
              preview: previewCall('previewPersonalityReset', { guildId }),
              undoNote: UNDO_NOTE,
              onConfirm: () => reset.mutateAsync(),
            })
          }
        >
          Reset
        </button>
      </div>
      <div className="refresh-notes">
        <p className="muted small">{REFRESH_NOTE}</p>
        <LastRefreshNote last={data.last_refresh ?? null} repair={data.last_repair ?? null} />
      </div>
      {jobView}
    </section>
  );
}

interface QuestionsCardProps {
  data: PersonalityRolesState;
  actions: PersonalityActions;
}

export function QuestionsCard({ data, actions }: QuestionsCardProps) {
  const { busy, toggle, confirmDeleteRoles } = actions;
  const questions = questionViews(data.questions);
  return (
    <section className="card" aria-labelledby="questions-title">
      <h2 id="questions-title">Question Categories</h2>
      <ul className="question-list">
        {questions.map((question) => (
          <li key={question.type} className="question-item">
            <div>
              <h3>{question.title}</h3>
              <p className="muted small">{question.description}</p>
              <p className="small">
                {question.roleCount} roles · {question.multi ? 'Multi-select' : 'Single choice'}
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
          </li>
        ))}
      </ul>
    </section>
  );
}
