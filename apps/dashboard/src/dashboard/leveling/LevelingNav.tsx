import type { LevelingState } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { NavLink } from 'react-router';
import '../../styles/leveling.css';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { withGuild } from '../shared/guild-param.ts';
import { queryKeys } from '../shared/queries.ts';
import { useLeveling } from './leveling-model.ts';

export const LEVELING_SWITCH_FAILURE = 'Failed to switch leveling';

/**
 * The head of every leveling page: the sub-pages and the on/off switch, so whichever page an
 * admin is on says whether members earn XP now.
 */
export function LevelingNav({ guildId }: { guildId: string }) {
  return (
    <div className="leveling-head">
      <nav className="button-row" aria-label="Leveling">
        {(
          [
            ['settings', 'Settings'],
            ['roles', 'Roles'],
            ['boosts', 'Boosts'],
            ['leaderboard', 'Leaderboard'],
            ['seasons', 'Seasons'],
          ] as const
        ).map(([slug, label]) => (
          <NavLink
            key={slug}
            className="btn btn-secondary btn-sm"
            to={withGuild(`/dashboard/leveling/${slug}`, guildId)}
          >
            {label}
          </NavLink>
        ))}
      </nav>
      <LevelingSwitch guildId={guildId} />
    </div>
  );
}

function LevelingSwitch({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const leveling = useLeveling(guildId);
  const key = queryKeys.leveling(guildId);
  const toggle = useMutation({
    mutationFn: (enabled: boolean) => apiCall('putLeveling', { params: { guildId }, body: { enabled } }),
    onSuccess: (settings) => {
      queryClient.setQueryData<LevelingState>(key, (current) =>
        current ? { ...current, leveling: settings } : current,
      );
    },
  });
  const enabled = leveling.data?.leveling.enabled;
  const known = enabled !== undefined;
  const shown = toggle.isPending ? toggle.variables : enabled;
  return (
    <div className="leveling-switch-box">
      <button
        type="button"
        role="switch"
        aria-checked={shown === true}
        className={shown ? 'leveling-switch is-on' : 'leveling-switch'}
        disabled={!known || toggle.isPending}
        onClick={() => toggle.mutate(!enabled)}
      >
        <span className="leveling-switch-track" aria-hidden="true">
          <span className="leveling-switch-thumb" />
        </span>
        <span className="leveling-switch-label">
          Leveling <strong>{known ? (shown ? 'on' : 'off') : '…'}</strong>
        </span>
      </button>
      {toggle.isError ? (
        <span className="alert alert-error small" role="alert">
          {errorText(toggle.error, LEVELING_SWITCH_FAILURE)}
        </span>
      ) : null}
      {known && !shown && !toggle.isPending ? (
        <span className="muted small">Members earn no XP while it is off.</span>
      ) : null}
    </div>
  );
}
