/**
 * Issue 34, part 2: a Discord (or Discord proxy) outage no longer fails running jobs half done.
 * The worker reaches Discord through a proxy (DISCORD_PROXY_URL) the test can cut: a job that
 * cannot reach it waits and retries, marked as waiting for Discord, and finishes once it is
 * back; a follow-up never publishes what its predecessor did not finish; a member's pick made
 * meanwhile is saved, answered so, and applied when Discord answers again.
 */
import { GuildJobPayload } from '@spacecadet/contract';
import { loadPalette } from '@spacecadet/db/queries/color-roles';
import { colorGroups, colorPanels, colors } from '@spacecadet/db/schema';
import { type DiscordProxy, startDiscordProxy } from '@spacecadet/discord-proxy';
import { DiscordAPIError, HTTPError } from 'discord.js';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isDiscordUnreachable } from '../src/discord-rest.ts';
import { buildPanelMessage } from '../src/features/color-roles/panel.ts';
import { PICK_SAVED_MESSAGE } from '../src/interactions/member-lock.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  finalAnswer,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  startHarness,
  stationWithCrowd,
  waitFor,
} from './helpers.ts';
import { hostAndPort, startTcpProxy, type TcpProxy } from './tcp-proxy.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
/** How long the proxy stays down, as the waiting job itself counts it. */
const OUTAGE_MS = 60_000;
const { fixture, crowd } = stationWithCrowd('2000000034', 10, 'cadet');

describe('jobs and clicks through a Discord proxy outage', () => {
  let harness: Harness;
  /** The shared Discord proxy, as deployed (the gateway stays direct to Discord)... */
  let discordProxy: DiscordProxy;
  /** ...and the network in front of it, which the test cuts. */
  let proxy: TcpProxy;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let panelMessageId = '';

  const outageMark = async (jobId: string) =>
    GuildJobPayload.parse((await jobs.queue.getJob(jobId))?.data).discord_outage;
  const panelMessages = () =>
    (guildState(harness.sandbox, STATION).channels.find((c) => c.id === rolesChannel)?.messages ?? []).filter(
      (message) => (message.components?.length ?? 0) > 0,
    );
  const customIds = (components: unknown) =>
    JSON.stringify(components)
      .match(/"custom_id":"[^"]+"/g)
      ?.sort() ?? [];

  beforeAll(async () => {
    harness = await startHarness(fixture);
    discordProxy = await startDiscordProxy({ upstream: harness.sandbox.apiBase, port: 0 });
    proxy = await startTcpProxy(hostAndPort(discordProxy.url, 80));
    worker = await startWorker(harness.config({ DISCORD_PROXY_URL: proxy.through(discordProxy.url) }));
    jobs = jobQueue(harness);
    panelMessageId = await postStationColorPanel(harness);
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await proxy?.close();
    await discordProxy?.close();
    await harness?.close();
  });

  it('a Generate cut off for 60 s waits and ends with every role and one full panel; clicks made meanwhile are applied', async () => {
    const { db } = harness.database;
    // Twelve more colors: Generate has twelve roles to create, and the panel twelve more buttons.
    const [group] = await db.select().from(colorGroups).where(eq(colorGroups.guildId, STATION)).limit(1);
    if (!group) throw new Error('no color group after the first Generate');
    await db.insert(colors).values(
      Array.from({ length: 12 }, (_, i) => ({
        groupId: group.id,
        guildId: STATION,
        name: `Nebula ${i + 1}`,
        hexCode: `#${(0x203040 + i * 0x0a0b0c).toString(16).padStart(6, '0')}`,
        position: 1_000 + i,
      })),
    );
    // The proxy goes down as Discord creates the third new role: its answer never reaches the worker.
    let createdRoles = 0;
    const cutOnThirdRole = (event: { t: string; guildId: string | null }) => {
      if (event.t === 'GUILD_ROLE_CREATE' && event.guildId === STATION && ++createdRoles === 3) proxy.cut();
    };
    harness.sandbox.world.events.on('dispatch', cutOnThirdRole);

    const generate = (await jobs.add('color-roles.generate')).id ?? '';
    const post = (await jobs.add('color-roles.post-panel')).id ?? '';
    const firstMark = await waitFor('Generate to wait for Discord', () => outageMark(generate));
    harness.sandbox.world.events.off('dispatch', cutOnThirdRole);
    expect(firstMark.progress).toBeLessThan(100);

    // Members pick colors of the posted panel while Discord cannot be reached.
    const basic = (await loadPalette(db, STATION)).filter((color) => !color.name.startsWith('Nebula'));
    const picks = crowd.map((userId, i) => ({ userId, color: basic[i % basic.length] }));
    const clicks = await Promise.all(
      picks.map(({ userId, color }) =>
        control(harness.sandbox).click({
          guild_id: STATION,
          channel_id: rolesChannel,
          message_id: panelMessageId,
          user_id: userId,
          custom_id: `color:pick:${color?.name}`,
        }),
      ),
    );
    const answers = await Promise.all(clicks.map((click) => finalAnswer(harness.sandbox, click)));
    expect(answers).toEqual(crowd.map(() => PICK_SAVED_MESSAGE));
    for (const userId of crowd) expect(memberRoles(harness.sandbox, STATION, userId)).toEqual([]);

    await waitFor(
      `${OUTAGE_MS / 1000} s of outage, as the waiting job counts it`,
      async () => {
        const mark = await outageMark(generate);
        return mark !== undefined && Date.now() - mark.since >= OUTAGE_MS;
      },
      OUTAGE_MS * 2,
    );
    // Nothing gave up: both jobs are still going to run.
    expect(await jobs.queue.getJobState(generate)).not.toMatch(/completed|failed/);
    expect(await jobs.queue.getJobState(post)).not.toMatch(/completed|failed/);
    expect((await outageMark(generate))?.retries).toBeGreaterThan(3);
    proxy.restore();

    const generated = await jobs.finished(generate, 60_000);
    expect(generated.state, generated.error).toBe('completed');
    const posted = await jobs.finished(post, 60_000);
    expect(posted.state, posted.error).toBe('completed');

    // 24 of 24 colors have a live role, one each (the create whose answer was lost was adopted).
    const palette = await loadPalette(db, STATION);
    expect(palette).toHaveLength(24);
    const roles = guildState(harness.sandbox, STATION).roles;
    for (const color of palette) {
      expect(
        roles.filter((role) => role.name === color.name).map((role) => role.id),
        color.name,
      ).toEqual([color.roleId]);
    }
    // One panel, showing every color.
    const panels = panelMessages();
    expect(panels.map((message) => message.id)).toEqual([panelMessageId]);
    expect(customIds(panels[0]?.components)).toEqual(
      customIds(buildPanelMessage(palette, 'basic').components),
    );
    expect(customIds(panels[0]?.components).filter((id) => id.includes('Nebula'))).toHaveLength(12);
    const [stored] = await db.select().from(colorPanels).where(eq(colorPanels.guildId, STATION));
    expect(stored?.messageId).toBe(panelMessageId);

    // Every pick made during the outage is applied now.
    await waitFor('the saved picks to be applied', () =>
      picks.every(({ userId, color }) =>
        memberRoles(harness.sandbox, STATION, userId).includes(color?.roleId ?? '-'),
      ),
    );
  }, 240_000);

  it('a follow-up never publishes a Generate that failed; a real Discord error fails at once rather than wait', async () => {
    const { db } = harness.database;
    const before = customIds(panelMessages()[0]?.components);
    const [group] = await db.select().from(colorGroups).where(eq(colorGroups.guildId, STATION)).limit(1);
    if (!group) throw new Error('no color group');
    await db
      .insert(colors)
      .values({ groupId: group.id, guildId: STATION, name: 'Quasar', hexCode: '#7A1FA2', position: 2_000 });
    // Discord refuses every role create: its verdict, not an outage.
    await control(harness.sandbox).fault({
      method: 'POST',
      path: `/guilds/${STATION}/roles`,
      status: 403,
      count: 100,
    });
    try {
      const generate = (await jobs.add('color-roles.generate')).id ?? '';
      const post = (await jobs.add('color-roles.post-panel')).id ?? '';
      const generated = await jobs.finished(generate);
      expect(generated.state).toBe('failed');
      expect(generated.job.attemptsMade).toBe(3);
      expect(await outageMark(generate)).toBeUndefined();
      const posted = await jobs.finished(post);
      expect(posted.state).toBe('failed');
      expect(posted.error).toMatch(/^predecessor_failed: Generate Roles did not finish/);
      // The panel still shows what it showed: nothing of the failed run was published.
      expect(customIds(panelMessages()[0]?.components)).toEqual(before);
    } finally {
      await control(harness.sandbox).clearFaults();
      await db.delete(colors).where(eq(colors.name, 'Quasar'));
    }
  }, 120_000);
});

describe('isDiscordUnreachable', () => {
  const route = 'https://discord.com/api/v10/guilds/1/roles';
  it.each([
    ['a 502 from the proxy', new HTTPError(502, 'Bad Gateway', 'POST', route, {}), true],
    ['a 503', new HTTPError(503, 'Service Unavailable', 'POST', route, {}), true],
    ['a 504', new HTTPError(504, 'Gateway Timeout', 'POST', route, {}), true],
    ['a 500', new HTTPError(500, 'Internal Server Error', 'POST', route, {}), false],
    [
      'connection refused',
      new TypeError('fetch failed', { cause: Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }) }),
      true,
    ],
    ['a request timeout', Object.assign(new Error('aborted'), { name: 'AbortError' }), true],
    [
      "Discord's 403 Missing Permissions",
      new DiscordAPIError({ code: 50013, message: 'Missing Permissions' }, 50013, 403, 'PUT', route, {}),
      false,
    ],
    ['any other error', new Error('boom'), false],
  ])('%s: %s', (_what, error, unreachable) => {
    expect(isDiscordUnreachable(error)).toBe(unreachable);
  });
});
