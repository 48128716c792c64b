import { prunePersonalityAnswerEvents } from '@spacecadet/db/queries/personality-answers';
import { loadPersonalityCleanup } from '@spacecadet/db/queries/personality-roles';
import type { WorkerDeps } from '../../deps.ts';
import type { JobContext } from '../../jobs/types.ts';
import { deleteRetiredInDiscord } from './reset.ts';

/**
 * What a refresh does besides repairing: works off the cleanup list an admin's edit left (the
 * reset job's own code), and prunes answer events older than the data retention.
 */

const HOUR_MS = 3600_000;
const DAY_MS = 24 * HOUR_MS;
/**
 * A scheduled refresh reads nothing from Postgres when nothing changed (setup-cache.ts); the
 * cleanup list is read by every run an admin's change asked for (the API queues one with each
 * edit, retried until done), and by a scheduled run once an hour per guild for what a run that
 * died for good left.
 */
const lastCleanupRead = new Map<string, number>();
const lastPrune = new Map<string, number>();

function due(seen: Map<string, number>, guildId: string, everyMs: number): boolean {
  const now = Date.now();
  const last = seen.get(guildId);
  if (last !== undefined && now - last < everyMs) return false;
  if (seen.size > 50_000) seen.clear();
  seen.set(guildId, now);
  return true;
}

export interface CleanupOutcome {
  roles: number;
  messages: number;
  prompts: number;
  overwrites: number;
  warnings: string[];
}

/** The guild's pending cleanup rows, each gone in Discord then deleted (idempotent, as the reset job). */
export async function workOffCleanup(context: JobContext): Promise<CleanupOutcome> {
  const guildId = context.payload.guild_id;
  const outcome: CleanupOutcome = { roles: 0, messages: 0, prompts: 0, overwrites: 0, warnings: [] };
  const requested = context.payload.requested_by !== null;
  if (!due(lastCleanupRead, guildId, requested ? 0 : HOUR_MS)) return outcome;
  const rows = await loadPersonalityCleanup(context.deps.db, guildId);
  if (rows.length === 0) return outcome;
  const done = await deleteRetiredInDiscord(context, rows, outcome.warnings);
  return { ...outcome, ...done, overwrites: rows.filter((row) => row.kind === 'overwrite').length };
}

/** Once a day per guild: answer events older than the data retention go. */
export async function pruneOldAnswers(deps: WorkerDeps, guildId: string): Promise<void> {
  if (!due(lastPrune, guildId, DAY_MS)) return;
  await prunePersonalityAnswerEvents(
    deps.db,
    guildId,
    new Date(Date.now() - deps.config.dataRetentionDays * DAY_MS),
  );
}
