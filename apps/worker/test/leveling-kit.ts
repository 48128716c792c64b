import type { JobName } from '@spacecadet/contract';
import { levelingRoles, levelingSettings, memberXp } from '@spacecadet/db/schema';
import { and, eq } from 'drizzle-orm';
import { expect } from 'vitest';
import { type Harness, type jobQueue, STATION } from './helpers.ts';

/**
 * What the leveling job tests share: a job run to its end (and required to complete), Sandbox
 * Station's settings written with leveling on, a member's XP row, and the reward roles the
 * tests made in the sandbox taken away again.
 */

export interface JobSummary {
  ok: boolean;
  summary: string;
}

/** Adds the job and waits for it: it must complete, without an error. */
export async function runJob(jobs: ReturnType<typeof jobQueue>, name: JobName): Promise<JobSummary> {
  const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
  expect(outcome.error ?? '').toBe('');
  expect(outcome.state).toBe('completed');
  return outcome.result as JobSummary;
}

/** Writes Station's leveling settings, leveling on, the others as they are. */
export function setStationLeveling(harness: Harness, values: Partial<typeof levelingSettings.$inferInsert>) {
  return harness.database.db
    .insert(levelingSettings)
    .values({ guildId: STATION, enabled: true, ...values })
    .onConflictDoUpdate({ target: levelingSettings.guildId, set: { enabled: true, ...values } });
}

/** The member's XP row in Station (it must exist). */
export async function stationMember(harness: Harness, userId: string) {
  const [row] = await harness.database.db
    .select()
    .from(memberXp)
    .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)));
  if (!row) throw new Error(`${userId} has no XP row`);
  return row;
}

/** Deletes the sandbox roles Sync Roles made for the stored reward roles, then the rows. */
export async function removeRewardRoles(harness: Harness): Promise<void> {
  const db = harness.database.db;
  const created = (await db.select().from(levelingRoles)).flatMap((row) => row.roleId ?? []);
  for (const roleId of created)
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${roleId}`, { method: 'DELETE' });
  await db.delete(levelingRoles);
}
