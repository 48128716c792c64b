/** The Actions card of a server with personality roles (the questions are QuestionsCard's). */
import type { PersonalityRolesState } from '@spacecadet/contract';
import type { ReactNode } from 'react';
import { previewCall, UNDO_NOTE } from '../shared/ConfirmDialog.tsx';
import { LastRefreshNote } from './LastRefreshNote.tsx';
import { REFRESH_NOTE, resetConfirmText } from './personality-model.ts';
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
