import { parseStateSubject } from '@spacecadet/contract';
import { guildHistory, memberXp } from '@spacecadet/db/schema';
import { and, asc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, finalAnswer, type Harness, SANDBOX_IDS, STATION, startHarness } from './helpers.ts';

const { mo, nia } = SANDBOX_IDS.users;

/**
 * An admin's `/xp` in Discord is a change like the dashboard's: a History entry with the
 * Discord user as the actor, the member named as they are then, and the state the API's Undo of
 * `leveling:xp` writes back (apps/api/test/leveling-history.test.ts undoes such an entry).
 */
describe('/xp in History', () => {
  let harness: Harness;
  let worker: RunningWorker;
  const db = () => harness.database.db;

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  const xp = async (name: string, options: Record<string, string>) => {
    const result = await control(harness.sandbox).command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: mo,
      name,
      options,
    });
    expect(result.responded).toBe(true);
    return finalAnswer(harness.sandbox, result);
  };
  const entries = () =>
    db().select().from(guildHistory).where(eq(guildHistory.guildId, STATION)).orderBy(asc(guildHistory.id));

  it('records set, add, remove and reset with the Discord user as the actor, undoable as the dashboard’s', async () => {
    await db().insert(memberXp).values({ guildId: STATION, userId: nia, xp: 300, level: 2 });
    await xp('xp set', { member: nia, amount: '1200' });
    await xp('xp add', { member: nia, amount: '50' });
    await xp('xp remove', { member: nia, amount: '250' });
    await xp('xp reset', { member: nia });
    // Nothing to change: nothing recorded.
    await xp('xp add', { member: nia, amount: '0' });

    const recorded = await entries();
    expect(
      recorded.map((entry) => [entry.action, entry.summary, entry.before, entry.after, entry.undoKind]),
    ).toEqual([
      ['leveling.member_xp', `Set the XP of <@${nia}>: 300 → 1200`, { xp: 300 }, { xp: 1200 }, 'state'],
      ['leveling.member_xp', `Gave <@${nia}> 50 XP: 1200 → 1250`, { xp: 1200 }, { xp: 1250 }, 'state'],
      ['leveling.member_xp', `Took 250 XP from <@${nia}>: 1250 → 1000`, { xp: 1250 }, { xp: 1000 }, 'state'],
      ['leveling.member_reset', `Reset the XP of <@${nia}> (1000 XP)`, { xp: 1000 }, { xp: 0 }, 'state'],
    ]);
    for (const entry of recorded) {
      expect(entry).toMatchObject({
        actorId: mo,
        actorName: 'mo',
        actorAvatar: '0b2e0b2e0b2e0b2e0b2e0b2e0b2e0b2e',
        area: 'leveling',
        subject: `leveling:xp:${nia}`,
        refs: { [nia]: { kind: 'member', name: 'Nia' } },
        undoneBy: null,
      });
      expect(entry.recordedAt).not.toBeNull();
      // The subject the API's restorer of a member's XP undoes.
      expect(parseStateSubject(entry.subject)).toEqual({ kind: 'leveling:xp', id: nia });
    }
    const [row] = await db()
      .select()
      .from(memberXp)
      .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, nia)));
    expect(row?.xp).toBe(0);
  });
});
