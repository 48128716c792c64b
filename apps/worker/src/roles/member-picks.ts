import {
  forgetMemberPick,
  type MemberPick,
  membersWithPicks,
  writeMemberPicks,
} from '@spacecadet/db/queries/member-picks';
import type { WorkerDeps } from '../deps.ts';
import { errorFields } from '../logger.ts';

/**
 * Members' picks (`member_role_picks`), written behind the click: a click that changed roles
 * records the member's whole pick of the scope here and returns; the records of every click of
 * the next few milliseconds go to Postgres together, in one transaction of two statements, so a
 * click's answer never waits on Postgres and a storm of clicks is a few writes. A member's later
 * click replaces their earlier record (clicks of a guild arrive on the one process holding its
 * shard, in order). While Postgres is down the records wait (up to `MAX_PENDING`) and are
 * retried every second; a process killed in between loses the last moment's records, never
 * more. The shutdown hook writes what is left.
 */

/** How long records gather before they are written together. */
const WRITE_DELAY_MS = 50;
const RETRY_MS = 1_000;
/** Past this many unwritten records (Postgres down a long while) the oldest are dropped. */
const MAX_PENDING = 50_000;

interface PickWriter {
  pending: MemberPick[];
  timer: NodeJS.Timeout | undefined;
  writing: Promise<void> | null;
}

const writers = new WeakMap<WorkerDeps['db'], PickWriter>();

function writerOf(deps: WorkerDeps): PickWriter {
  let writer = writers.get(deps.db);
  if (!writer) {
    writer = { pending: [], timer: undefined, writing: null };
    writers.set(deps.db, writer);
  }
  return writer;
}

/** Records what the member holds in the scope now; written to Postgres shortly after. */
export function recordMemberPick(deps: WorkerDeps, pick: MemberPick): void {
  const writer = writerOf(deps);
  writer.pending.push(pick);
  if (writer.pending.length > MAX_PENDING) writer.pending.splice(0, writer.pending.length - MAX_PENDING);
  schedule(deps, writer, WRITE_DELAY_MS);
}

function schedule(deps: WorkerDeps, writer: PickWriter, delayMs: number): void {
  if (writer.timer || writer.writing) return;
  writer.timer = setTimeout(() => {
    writer.timer = undefined;
    void write(deps, writer);
  }, delayMs);
  writer.timer.unref();
}

function write(deps: WorkerDeps, writer: PickWriter): Promise<void> {
  if (writer.writing) return writer.writing;
  const batch = writer.pending.splice(0);
  if (batch.length === 0) return Promise.resolve();
  writer.writing = writeMemberPicks(deps.db, batch)
    .then(() => {
      writer.writing = null;
      if (writer.pending.length > 0) schedule(deps, writer, WRITE_DELAY_MS);
    })
    .catch((error: unknown) => {
      // Put back before anything recorded since, so a member's later pick still wins.
      writer.pending.unshift(...batch);
      writer.writing = null;
      deps.logger.warn({ ...errorFields(error), picks: batch.length }, 'member picks not written; retrying');
      schedule(deps, writer, RETRY_MS);
    });
  return writer.writing;
}

/**
 * Writes every record of this process now (before a repair reads them, and on shutdown). One
 * try: a failure is logged and the records stay pending.
 */
export async function flushMemberPicks(deps: WorkerDeps): Promise<void> {
  const writer = writers.get(deps.db);
  if (!writer) return;
  clearTimeout(writer.timer);
  writer.timer = undefined;
  await writer.writing;
  await write(deps, writer);
}

/** What giving a recreated role back to one member came to. */
export type GiveBack = 'given' | 'gone' | 'skipped';

/**
 * After roles were recreated (`targetKey` → the new Discord role id): every member whose picks
 * include the target gets the new role through `give` (the feature's own way, under the member's
 * click lock). A member who left loses the record. Returns how many members got a role back.
 */
export async function givePicksBack(
  deps: WorkerDeps,
  guildId: string,
  recreated: ReadonlyMap<string, string>,
  give: (userId: string, targetKey: string, roleId: string) => Promise<GiveBack>,
): Promise<number> {
  if (recreated.size === 0) return 0;
  await flushMemberPicks(deps);
  const holders = await membersWithPicks(deps.db, guildId, [...recreated.keys()]);
  let given = 0;
  for (const { userId, targetKey } of holders) {
    const roleId = recreated.get(targetKey);
    if (!roleId) continue;
    const outcome = await give(userId, targetKey, roleId);
    if (outcome === 'given') given += 1;
    if (outcome === 'gone') await forgetMemberPick(deps.db, guildId, userId, targetKey);
  }
  return given;
}
