import { jobSchedulerIdFor } from '@spacecadet/contract';
import { TokenCipher } from '@spacecadet/core/token-cipher';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import { levelingSettings, memberXp, roleConnections } from '@spacecadet/db/schema';
import { SANDBOX_CLIENT_SECRET } from '@spacecadet/discord-sandbox';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { levelingSetups } from '../src/features/leveling/setup.ts';
import { LINKED_ROLES_METADATA } from '../src/features/linked-roles/metadata.ts';
import { LINKED_ROLES_PUSH_EVERY_MS } from '../src/features/linked-roles/schedule.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  setupChangesHeard,
  startHarness,
  waitFor,
} from './helpers.ts';

const { ada, mo } = SANDBOX_IDS.users;
const general = SANDBOX_IDS.channels.general;
const REDIRECT = 'http://127.0.0.1:1/linked-roles/callback';

/** A member's tokens with `role_connections.write`, from the sandbox's code grant (no PKCE, as Discord requires). */
async function linkTokens(harness: Harness, userId: string) {
  const query = new URLSearchParams({
    client_id: SANDBOX_IDS.app,
    response_type: 'code',
    scope: 'identify role_connections.write',
    redirect_uri: REDIRECT,
    sandbox_user: userId,
  });
  const auth = await fetch(`${harness.sandbox.oauthBase}/oauth2/authorize?${query}`, { redirect: 'manual' });
  const code = new URL(auth.headers.get('location') ?? '').searchParams.get('code') ?? '';
  const res = await fetch(`${harness.sandbox.apiBase}/v10/oauth2/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({
      client_id: SANDBOX_IDS.app,
      client_secret: SANDBOX_CLIENT_SECRET,
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
    }),
  });
  return (await res.json()) as { access_token: string; refresh_token: string; expires_in: number };
}

describe('levels in Discord Linked Roles', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let cipher: TokenCipher;

  const shown = (userId: string) => harness.sandbox.state().role_connections.users[userId];
  const metadataPuts = () =>
    harness.sandbox.world.requests.filter(
      (r) => r.method === 'PUT' && r.path.endsWith('/role-connections/metadata'),
    );
  const link = async (userId: string, expiresAt: Date) => {
    const tokens = await linkTokens(harness, userId);
    await harness.database.db.insert(roleConnections).values({
      userId,
      guildId: STATION,
      accessTokenEnc: cipher.encrypt(tokens.access_token),
      refreshTokenEnc: cipher.encrypt(tokens.refresh_token),
      tokenExpiresAt: expiresAt,
      pushDueAt: new Date(),
    });
    return tokens;
  };

  beforeAll(async () => {
    harness = await startHarness();
    cipher = new TokenCipher(harness.env.SESSION_SECRET ?? '');
    const db = harness.database.db;
    await db.insert(levelingSettings).values({
      guildId: STATION,
      enabled: true,
      xpMin: 60,
      xpMax: 60,
      messageCooldownSec: 0,
      xpMultiplier: 1,
    });
    // Linked before the worker starts, so its push schedule exists from the start.
    await link(ada, new Date(Date.now() + 7 * 86_400_000));
    worker = await startWorker(harness.config());
    await setupChangesHeard(harness, levelingSetups, LEVELING_SETUP_CHANNEL);
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  it('publishes the level and xp metadata at start, and not again when Discord has them', async () => {
    expect(harness.sandbox.state().role_connections.metadata).toEqual(LINKED_ROLES_METADATA);
    expect(metadataPuts()).toHaveLength(1);
    await worker.close();
    worker = await startWorker(harness.config());
    expect(metadataPuts()).toHaveLength(1);
  });

  it("pushes a linked member's level and XP when they level up", async () => {
    // Linked before any XP: level 0 is shown once pushed.
    const first = await waitFor('the first push', () => shown(ada));
    expect(first).toMatchObject({ platform_name: 'Space Cadet', metadata: { level: '0', xp: '0' } });
    const sandbox = control(harness.sandbox);
    // 60 XP a message: 120 → level 1 (100), then 300 → level 2 (255).
    for (let i = 0; i < 2; i++) {
      await sandbox.postMessage({
        guild_id: STATION,
        channel_id: general,
        author_id: ada,
        content: `hi ${i}`,
      });
    }
    await waitFor(
      'level 1 shown on Discord',
      () => (shown(ada)?.metadata.level === '1' ? true : undefined),
      60_000,
    );
    expect(shown(ada)?.metadata.xp).toBe('120');
    for (let i = 0; i < 3; i++) {
      await sandbox.postMessage({
        guild_id: STATION,
        channel_id: general,
        author_id: ada,
        content: `more ${i}`,
      });
    }
    await waitFor(
      'level 2 shown on Discord',
      () => (shown(ada)?.metadata.level === '2' ? true : undefined),
      60_000,
    );
    expect(shown(ada)?.metadata.xp).toBe('300');
    const [row] = await harness.database.db
      .select()
      .from(roleConnections)
      .where(eq(roleConnections.userId, ada));
    expect(row).toMatchObject({ pushedLevel: 2, pushedXp: 300, pushDueAt: null });
    const [xp] = await harness.database.db.select().from(memberXp).where(eq(memberXp.userId, ada));
    expect(xp?.level).toBe(2);
  });

  it('pushes a level changed without an XP batch (an XP tool, a reset) on the next run', async () => {
    await harness.database.db.update(memberXp).set({ xp: 1150, level: 5 }).where(eq(memberXp.userId, ada));
    const jobs = jobQueue(harness);
    try {
      await jobs.add('linked-roles.push');
      await waitFor('level 5 shown on Discord', () =>
        shown(ada)?.metadata.level === '5' ? true : undefined,
      );
      expect(shown(ada)?.metadata.xp).toBe('1150');
    } finally {
      await jobs.close();
    }
  });

  it('gives a server its push schedule when the API queues a push for a new link', async () => {
    const jobs = jobQueue(harness);
    const schedulerId = jobSchedulerIdFor('linked-roles.push', STATION);
    try {
      // As for a server whose first member links now: no scheduler yet, and the shard's full
      // sync (every 15 minutes) is not due.
      await jobs.queue.removeJobScheduler(schedulerId);
      expect(await jobs.queue.getJobScheduler(schedulerId)).toBeUndefined();
      const job = await jobs.add('linked-roles.push');
      expect((await jobs.finished(job.id ?? '')).state).toBe('completed');
      expect(await jobs.queue.getJobScheduler(schedulerId)).toMatchObject({
        every: LINKED_ROLES_PUSH_EVERY_MS,
      });
    } finally {
      await jobs.close();
    }
  });

  it('refreshes an expired token through the token endpoint, and drops a link Discord revoked', async () => {
    const jobs = jobQueue(harness);
    try {
      const tokens = await link(mo, new Date(Date.now() - 1000));
      await jobs.add('linked-roles.push');
      await waitFor('mo shown on Discord', () => shown(mo));
      const [row] = await harness.database.db
        .select()
        .from(roleConnections)
        .where(eq(roleConnections.userId, mo));
      expect(row && cipher.decrypt(row.accessTokenEnc)).not.toBe(tokens.access_token);
      expect(row && row.tokenExpiresAt.getTime() > Date.now()).toBe(true);

      // Revoked at Discord: the next push answers 401 and the link is dropped.
      harness.sandbox.world.accessTokens.clear();
      harness.sandbox.world.refreshTokens.clear();
      await harness.database.db
        .update(roleConnections)
        .set({ pushDueAt: new Date() })
        .where(eq(roleConnections.userId, mo));
      await jobs.add('linked-roles.push');
      await waitFor('the revoked link dropped', async () => {
        const rows = await harness.database.db
          .select()
          .from(roleConnections)
          .where(eq(roleConnections.userId, mo));
        return rows.length === 0 ? true : undefined;
      });
    } finally {
      await jobs.close();
    }
  });

  it("clears the connections showing a server when the server's data is deleted", async () => {
    // A live grant (the test before revoked every token at Discord).
    await harness.database.db.delete(roleConnections).where(eq(roleConnections.userId, ada));
    await link(ada, new Date(Date.now() + 7 * 86_400_000));
    await waitFor('ada shown on Discord', () => shown(ada));
    const jobs = jobQueue(harness);
    try {
      const done = await jobs.finished((await jobs.add('guild-data.delete', STATION)).id as string);
      expect(done.state).toBe('completed');
      expect(shown(ada)).toBeUndefined();
      expect(
        await harness.database.db.select().from(roleConnections).where(eq(roleConnections.guildId, STATION)),
      ).toEqual([]);
    } finally {
      await jobs.close();
    }
  });
});
