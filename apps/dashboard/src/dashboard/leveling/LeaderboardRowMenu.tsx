import { MEMBER_XP_MAX } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText, fieldIssue } from '../../lib/api-error.ts';
import { UNDO_FROM_HISTORY, useConfirm } from '../shared/ConfirmDialog.tsx';
import { queryKeys } from '../shared/queries.ts';

export const SET_XP_FAILURE = 'Failed to set XP';
export const RESET_XP_FAILURE = 'Failed to reset XP';
export const resetMemberConfirm = (name: string) =>
  `Reset ${name}'s XP to 0? They drop off the leaderboard and lose their reward roles.`;

/**
 * A leaderboard row's menu: set the member's XP (their level and rewards follow) or reset them.
 * Either reloads the leaderboard and the leveling data (reward holders change).
 */
export function LeaderboardRowMenu({
  guildId,
  userId,
  name,
  xp,
}: {
  guildId: string;
  userId: string;
  name: string;
  xp: number;
}) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState(String(xp));
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  // Opening moves the keyboard into the panel; closing (Escape, or a change made) brings it back
  // to the row's button instead of dropping it on the page.
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    input.current?.select();
  }, [open]);
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.leaderboard(guildId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) }),
    ]);
  const set = useMutation({
    mutationFn: () =>
      apiCall('setMemberXp', { params: { guildId, userId }, body: { xp: Number(typed.trim()) } }),
    onSuccess: async () => {
      close();
      await reload();
    },
  });
  const reset = useMutation({
    mutationFn: () => apiCall('resetMemberXp', { params: { guildId, userId } }),
    onSuccess: async () => {
      close();
      await reload();
    },
  });
  const n = Number(typed.trim());
  const local =
    typed.trim() === '' || !Number.isInteger(n) || n < 0
      ? 'XP is a whole number of at least 0.'
      : n > MEMBER_XP_MAX
        ? `XP is at most ${MEMBER_XP_MAX.toLocaleString('en-US')}.`
        : null;
  const problem = set.isError
    ? (fieldIssue(set.error, 'xp') ?? errorText(set.error, SET_XP_FAILURE))
    : reset.isError
      ? errorText(reset.error, RESET_XP_FAILURE)
      : null;
  const busy = set.isPending || reset.isPending;
  const confirmation = useConfirm();

  return (
    <div className="row-menu">
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm row-menu-button"
        aria-label={`Actions for ${name}`}
        aria-expanded={open}
        aria-controls={panelId}
        onClick={() => {
          setOpen((current) => !current);
          setTyped(String(xp));
          set.reset();
          reset.reset();
        }}
      >
        ⋯
      </button>
      {open ? (
        <fieldset
          id={panelId}
          className="row-menu-panel"
          aria-label={`XP of ${name}`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              close();
            }
          }}
        >
          <form
            className="row-menu-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (local === null) set.mutate();
            }}
          >
            <label htmlFor={`${panelId}-xp`} className="small">
              Set XP
            </label>
            <input
              id={`${panelId}-xp`}
              ref={input}
              className="input"
              type="number"
              min={0}
              step={1}
              value={typed}
              aria-invalid={local !== null || set.isError || undefined}
              onChange={(event) => setTyped(event.target.value)}
            />
            <button type="submit" className="btn btn-primary btn-sm" disabled={busy || local !== null}>
              {set.isPending ? 'Saving…' : 'Set XP'}
            </button>
          </form>
          {local && typed.trim() !== '' ? <p className="small muted">{local}</p> : null}
          <button
            type="button"
            className="btn btn-danger btn-sm"
            disabled={busy}
            onClick={() =>
              confirmation.ask({
                title: `Reset ${name}'s XP?`,
                question: resetMemberConfirm(name),
                confirmLabel: 'Reset XP',
                undoNote: UNDO_FROM_HISTORY,
                onConfirm: () => reset.mutateAsync(),
              })
            }
          >
            {reset.isPending ? 'Resetting…' : 'Reset XP'}
          </button>
          {problem ? (
            <p className="alert alert-error small" role="alert">
              {problem}
            </p>
          ) : null}
        </fieldset>
      ) : null}
      {confirmation.dialog}
    </div>
  );
}
