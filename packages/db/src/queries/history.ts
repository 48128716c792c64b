import {
  HISTORY_ACTIONS,
  HISTORY_KEEP_DAYS,
  HISTORY_SNAPSHOT_DAYS,
  type HistoryAction,
  type HistoryArea,
  type HistoryRefs,
} from '@spacecadet/contract';
import { historyChanges } from '@spacecadet/core';
import { and, desc, eq, gt, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../client.ts';
import { guildHistory, type HistoryRow, type HistoryUndoKind } from '../schema/history.ts';
import { inShards, type ShardFilter } from './shard-filter.ts';

/**
 * History entries (`guild_history`): written by the API around every recorded route and by the
 * worker for an admin's Discord command, completed by the jobs that snapshot what they remove,
 * read by the History page, pruned by the worker's daily `history.prune`.
 *
 * Why one file: an entry's life (begin, complete or drop, claim and release for an undo, snapshot,
 * restore, prune) is one state machine over one table; its steps read each other's columns.
 */

/** Who made a change, with the name and avatar they have now (kept with the entry). */
export interface HistoryActor {
  id: string;
  name: string;
  avatar: string | null;
}

/** The subject of an action that names none: `<area>:<action>` (`color_roles:generate`). */
export function defaultHistorySubject(action: HistoryAction): string {
  return `${HISTORY_ACTIONS[action].area}:${action.slice(action.indexOf('.') + 1)}`;
}

export interface HistoryStart {
  guildId: string;
  actorId: string;
  actorName: string;
  actorAvatar: string | null;
  area: HistoryArea;
  action: HistoryAction;
  subject: string;
}

/** What writes an entry: the database, or a transaction that records it with its change. */
export type HistoryWriter = Pick<Db, 'insert' | 'update'>;

/** Opens an entry, hidden until `completeHistoryEntry`: its id can go into queued jobs. */
export async function beginHistoryEntry(db: HistoryWriter, start: HistoryStart): Promise<number> {
  const [row] = await db.insert(guildHistory).values(start).returning({ id: guildHistory.id });
  if (!row) throw new Error('History insert returned no row');
  return row.id;
}

export interface HistoryCompletion {
  area?: HistoryArea;
  subject?: string;
  summary: string;
  undoKind: HistoryUndoKind | null;
  before?: unknown;
  after?: unknown;
  /** A snapshot the API took itself (whole at once). */
  snapshot?: Record<string, unknown>;
  jobId?: string | null;
  undoOf?: number | null;
  /** The names, then, of the ids the summary and states mention (`historyRefIds`). */
  refs?: HistoryRefs;
}

/** What a change noted about itself: a completion whose summary may be left to the label. */
export type HistoryNoted = Omit<HistoryCompletion, 'summary'> & { summary?: string };

/**
 * A settings change that changed nothing (saving a form as it was): not worth an entry, which
 * would show no diff and undo to the same state.
 */
export function changedNothing(noted: HistoryNoted): boolean {
  return noted.undoKind === 'state' && historyChanges(noted.before, noted.after).length === 0;
}

/**
 * What an entry of `action` stores, whoever records it (the API's routes, the worker's
 * commands): an action the contract does not let be undone stays so whatever was noted, and a
 * summary left out is the action's label, with the fields a settings change changed
 * ("Edited a role menu: title, color").
 */
export function historyCompletion(action: HistoryAction, noted: HistoryNoted): HistoryCompletion {
  const spec = HISTORY_ACTIONS[action];
  const undoKind = spec.undo === null ? null : noted.undoKind;
  return { ...noted, undoKind, summary: noted.summary ?? defaultSummary(spec.label, noted) };
}

function defaultSummary(label: string, noted: HistoryNoted): string {
  if (noted.undoKind !== 'state') return label;
  const fields = historyChanges(noted.before, noted.after).map((change) => change.field);
  return fields.length > 0 && fields.length <= 4
    ? `${label}: ${fields.join(', ').replaceAll('_', ' ')}`
    : label;
}

/**
 * Records a change made outside a route (an admin's Discord command) in one write, as the API
 * records its own: `state(subject, before, after)` for a settings change, so the History page's
 * Undo restores it through the same restorer. A change that changed nothing is not recorded
 * (null), as with the API.
 */
export async function recordHistoryEntry(
  db: HistoryWriter,
  entry: { guildId: string; actor: HistoryActor; action: HistoryAction; noted: HistoryNoted },
): Promise<HistoryRow | null> {
  if (changedNothing(entry.noted)) return null;
  const id = await beginHistoryEntry(db, {
    guildId: entry.guildId,
    actorId: entry.actor.id,
    actorName: entry.actor.name,
    actorAvatar: entry.actor.avatar,
    area: HISTORY_ACTIONS[entry.action].area,
    action: entry.action,
    subject: entry.noted.subject ?? defaultHistorySubject(entry.action),
  });
  return completeHistoryEntry(db, id, historyCompletion(entry.action, entry.noted));
}

/** Shows the entry: the route succeeded. */
export async function completeHistoryEntry(
  db: HistoryWriter,
  id: number,
  done: HistoryCompletion,
): Promise<HistoryRow> {
  const [row] = await db
    .update(guildHistory)
    .set({
      ...(done.area ? { area: done.area } : {}),
      ...(done.subject ? { subject: done.subject } : {}),
      summary: done.summary,
      undoKind: done.undoKind,
      before: done.before ?? null,
      after: done.after ?? null,
      ...(done.snapshot ? { snapshot: done.snapshot, snapshotReady: sql`now()` } : {}),
      jobId: done.jobId ?? null,
      undoOf: done.undoOf ?? null,
      refs: done.refs ?? null,
      recordedAt: sql`now()`,
    })
    .where(eq(guildHistory.id, id))
    .returning();
  if (!row) throw new Error(`History entry ${id} vanished before it was completed`);
  return row;
}

/** Removes an entry whose route failed. */
export async function dropHistoryEntry(db: Db, id: number): Promise<void> {
  await db.delete(guildHistory).where(and(eq(guildHistory.id, id), isNull(guildHistory.recordedAt)));
}

/** A page of the guild's recorded entries, newest first. */
export async function listHistory(
  db: Db,
  guildId: string,
  page: { limit: number; before?: number | undefined; area?: HistoryArea | undefined },
): Promise<HistoryRow[]> {
  return db
    .select()
    .from(guildHistory)
    .where(
      and(
        eq(guildHistory.guildId, guildId),
        isNotNull(guildHistory.recordedAt),
        page.before === undefined ? undefined : lt(guildHistory.id, page.before),
        page.area === undefined ? undefined : eq(guildHistory.area, page.area),
      ),
    )
    .orderBy(desc(guildHistory.id))
    .limit(page.limit);
}

/** One recorded entry of the guild, or null (another guild's entry is not found either). */
export async function loadHistoryEntry(db: Db, guildId: string, id: number): Promise<HistoryRow | null> {
  const [row] = await db
    .select()
    .from(guildHistory)
    .where(
      and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, id), isNotNull(guildHistory.recordedAt)),
    )
    .limit(1);
  return row ?? null;
}

/**
 * The newest recorded entry after `afterId` whose subject overlaps `subject` (is it, lies under
 * it, or holds it: the contract's `subjectsOverlap`), or null: what an undo asks to confirm.
 */
export async function newerChangeOn(
  db: Db,
  guildId: string,
  subject: string,
  afterId: number,
): Promise<HistoryRow | null> {
  const [row] = await db
    .select()
    .from(guildHistory)
    .where(
      and(
        eq(guildHistory.guildId, guildId),
        gt(guildHistory.id, afterId),
        isNotNull(guildHistory.recordedAt),
        or(
          eq(guildHistory.subject, subject),
          sql`${guildHistory.subject} LIKE ${`${escapeLike(subject)}:%`}`,
          sql`${subject} LIKE ${guildHistory.subject} || ':%'`,
        ),
      ),
    )
    .orderBy(desc(guildHistory.id))
    .limit(1);
  return row ?? null;
}

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * Marks the entry undone by `undoEntryId`; false when it already was (two undo clicks: the
 * second one loses). `restore`: a job finishes the undo (`loadRestoresRequested`).
 */
export async function claimUndo(
  db: Db,
  guildId: string,
  id: number,
  undoEntryId: number,
  options: { restore?: boolean } = {},
): Promise<boolean> {
  const rows = await db
    .update(guildHistory)
    .set({ undoneBy: undoEntryId, ...(options.restore ? { restoreRequestedAt: sql`now()` } : {}) })
    .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, id), isNull(guildHistory.undoneBy)))
    .returning({ id: guildHistory.id });
  return rows.length > 0;
}

/** Gives an undo claimed by a request that then failed back (the entry is undoable again). */
export async function releaseUndo(db: Db, guildId: string, id: number, undoEntryId: number): Promise<void> {
  await db
    .update(guildHistory)
    .set({ undoneBy: null, restoreRequestedAt: null })
    .where(
      and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, id), eq(guildHistory.undoneBy, undoEntryId)),
    );
}

/**
 * Adds a part to the entry's snapshot; keys already there are kept (the first run of a job that
 * ran twice saw the state before anything was removed). `ready`: the snapshot is whole, the
 * entry can be undone.
 */
export async function attachSnapshot(
  db: Db,
  guildId: string,
  id: number,
  part: Record<string, unknown>,
  options: { ready: boolean },
): Promise<void> {
  await db
    .update(guildHistory)
    .set({
      snapshot: sql`${JSON.stringify(part)}::jsonb || coalesce(${guildHistory.snapshot}, '{}'::jsonb)`,
      ...(options.ready ? { snapshotReady: sql`coalesce(${guildHistory.snapshotReady}, now())` } : {}),
    })
    .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, id)));
}

/** Entries of these actions whose undo a job is to finish, oldest first. */
export async function loadRestoresRequested(
  db: Db,
  guildId: string,
  actions: readonly HistoryAction[],
): Promise<HistoryRow[]> {
  if (actions.length === 0) return [];
  // Filtered in SQL: an entry's snapshot can be large (an import keeps up to 100,000 rows).
  return db
    .select()
    .from(guildHistory)
    .where(
      and(
        eq(guildHistory.guildId, guildId),
        inArray(guildHistory.action, [...actions]),
        isNotNull(guildHistory.restoreRequestedAt),
        isNull(guildHistory.restoredAt),
      ),
    )
    .orderBy(guildHistory.id);
}

/** The job finished the entry's undo. */
export async function markRestored(db: Db, guildId: string, id: number): Promise<void> {
  await db
    .update(guildHistory)
    .set({ restoredAt: sql`now()` })
    .where(and(eq(guildHistory.guildId, guildId), eq(guildHistory.id, id)));
}

const DAY_MS = 24 * 3600 * 1000;

/**
 * Drops what the guild keeps no longer: entries older than `HISTORY_KEEP_DAYS`, snapshots older
 * than `HISTORY_SNAPSHOT_DAYS` (their entries stay, no longer undoable; not while a restore job
 * asked for in time is still to put them back), and entries of requests that never finished
 * (older than a day; an undo among them gives back the entry it claimed unless it was restored).
 */
export async function pruneGuildHistory(
  db: Db,
  guildId: string,
  now: Date = new Date(),
): Promise<{ deleted: number; snapshotsDropped: number }> {
  const keepFrom = new Date(now.getTime() - HISTORY_KEEP_DAYS * DAY_MS);
  const snapshotsFrom = new Date(now.getTime() - HISTORY_SNAPSHOT_DAYS * DAY_MS);
  const unfinishedFrom = new Date(now.getTime() - DAY_MS);
  const deleted = await db
    .delete(guildHistory)
    .where(
      and(
        eq(guildHistory.guildId, guildId),
        or(
          lt(guildHistory.at, keepFrom),
          and(isNull(guildHistory.recordedAt), lt(guildHistory.at, unfinishedFrom)),
        ),
      ),
    )
    .returning({ id: guildHistory.id, recordedAt: guildHistory.recordedAt });
  // An undo whose request died before it finished (its entry never recorded) and whose restore
  // was not done: the entry it claimed can be undone again.
  const unfinished = deleted.filter((row) => row.recordedAt === null).map((row) => row.id);
  if (unfinished.length > 0) {
    await db
      .update(guildHistory)
      .set({ undoneBy: null, restoreRequestedAt: null })
      .where(
        and(
          eq(guildHistory.guildId, guildId),
          inArray(guildHistory.undoneBy, unfinished),
          isNull(guildHistory.restoredAt),
        ),
      );
  }
  const dropped = await db
    .update(guildHistory)
    .set({ snapshot: null, snapshotReady: null })
    .where(
      and(
        eq(guildHistory.guildId, guildId),
        isNotNull(guildHistory.snapshot),
        lt(guildHistory.at, snapshotsFrom),
        // An undo asked in time whose job has not run yet still needs it.
        or(isNull(guildHistory.restoreRequestedAt), isNotNull(guildHistory.restoredAt)),
      ),
    )
    .returning({ id: guildHistory.id });
  return { deleted: deleted.length, snapshotsDropped: dropped.length };
}

/** Guilds with history: the ones `history.prune` runs for. */
export async function guildsWithHistory(db: Db, shards?: ShardFilter): Promise<string[]> {
  const rows = await db
    .selectDistinct({ guildId: guildHistory.guildId })
    .from(guildHistory)
    .where(inShards(guildHistory.guildId, shards));
  return rows.map((row) => row.guildId);
}
