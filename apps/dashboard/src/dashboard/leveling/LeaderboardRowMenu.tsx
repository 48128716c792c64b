import { UNDO_FROM_HISTORY, useConfirm } from '../shared/ConfirmDialog.tsx';
import { type MemberXpMenu, useMemberXpMenu } from './useMemberXpMenu.ts';

export { RESET_XP_FAILURE, SET_XP_FAILURE } from './useMemberXpMenu.ts';
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
  const menu = useMemberXpMenu({ guildId, userId, xp });
  return (
    <div className="row-menu">
      <button
        ref={menu.button}
        type="button"
        className="btn btn-ghost btn-sm row-menu-button"
        aria-label={`Actions for ${name}`}
        aria-expanded={menu.open}
        aria-controls={menu.panelId}
        onClick={menu.toggle}
      >
        ⋯
      </button>
      <RowXpPanel name={name} menu={menu} />
    </div>
  );
}

/** The open menu's panel: the Set XP form, Reset XP (asked first) and what went wrong. */
function RowXpPanel({ name, menu }: { name: string; menu: MemberXpMenu }) {
  const { panelId, typed, local, set, reset, busy, problem } = menu;
  const confirmation = useConfirm();
  return (
    <>
      {menu.open ? (
        <fieldset
          id={panelId}
          className="row-menu-panel"
          aria-label={`XP of ${name}`}
          onKeyDown={(event) => {
            if (event.key === 'Escape') {
              event.preventDefault();
              menu.close();
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
              ref={menu.input}
              className="input"
              type="number"
              min={0}
              step={1}
              value={typed}
              aria-invalid={local !== null || set.isError || undefined}
              onChange={(event) => menu.setTyped(event.target.value)}
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
    </>
  );
}
