/**
 * The component clicks this process received and has not yet recorded as a member's pick (nor
 * finished handling), per member. A click reads what it needs (the palette, the menu) and has
 * its deferral land before it records its pick (`lastPickWins`); on a busy process that can take
 * longer than applying an older click of the same member. Without this list that older click
 * would be answered with its own outcome while the newer one, already here, changes it a moment
 * later: a member answered with a colour they do not end with. The member's waiting clicks are
 * answered only once no newer click of theirs is arriving.
 *
 * A member's clicks arrive on their guild's shard, which one process holds, so this process's
 * list is the whole list.
 */

interface ArrivingClick {
  id: string;
  guildId: string | null;
  user: { id: string };
}

/** Interaction ids (snowflakes) of the clicks arriving, by `<guild>:<user>`. */
const arriving = new Map<string, Set<bigint>>();

const memberKey = (guildId: string, userId: string) => `${guildId}:${userId}`;

/** A click is here: called before anything is awaited for it. */
export function clickArrived(click: ArrivingClick): void {
  if (!click.guildId) return;
  const key = memberKey(click.guildId, click.user.id);
  const ids = arriving.get(key) ?? new Set<bigint>();
  ids.add(BigInt(click.id));
  arriving.set(key, ids);
}

/** The click's pick is recorded, or it was answered without one. Calling it twice is harmless. */
export function clickRecorded(click: ArrivingClick): void {
  if (!click.guildId) return;
  const key = memberKey(click.guildId, click.user.id);
  const ids = arriving.get(key);
  if (!ids) return;
  ids.delete(BigInt(click.id));
  if (ids.size === 0) arriving.delete(key);
}

/** Whether a click of the member newer than `id` is here but not recorded yet. */
export function newerClickArriving(guildId: string, userId: string, id: bigint): boolean {
  const ids = arriving.get(memberKey(guildId, userId));
  if (!ids) return false;
  for (const other of ids) if (other > id) return true;
  return false;
}
