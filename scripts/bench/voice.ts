/**
 * Voice XP (`pnpm bench voice`): 5,000 members in voice across 100 servers, a few minutes.
 *
 * Each server (leveling on, 10 XP a voice minute, at least 2 people, multiplier 1) has 50
 * members in voice: 25 in one channel (5 of them self-muted), 20 in another, 5 in the AFK
 * channel. The rule gives 40 earners a server, 4,000 in all: 40,000 XP and 4,000 voice minutes
 * a minute, computed here from the world, not with the worker's code. Each minute the AFK
 * members mute and unmute themselves (1,000 VOICE_STATE_UPDATEs), which changes no one's
 * earning.
 *
 * The real worker (`startWorker`, every feature, in this process) runs voice XP on minutes this
 * script ends (`voiceXpFeatureWith`), so the run takes seconds, not minutes. The first minute
 * after the start is not a full one for anybody (the worker saw them from its start) and must
 * credit nothing; then each minute's XP and voice minutes written to Postgres are compared with
 * the rule (goal: exactly 1.0). Worker CPU per minute (this process: the minute's gateway
 * events, the credit, the flush to Postgres) is set against a bare discord.js Client (the
 * worker's intents, default caches, which keep voice states) receiving the same events,
 * measured in the same run, both per 1,000 members in voice.
 *
 * The sandboxes run in a child process (`voice.ts --sandbox`): one for the worker, one for the
 * baseline, so neither client receives the other's events and the sandbox's work is not billed
 * to this process.
 */
import { once } from 'node:events';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { createDb } from '@spacecadet/db';
import { levelingSettings } from '@spacecadet/db/schema';
import { createTestDatabase, type TestDatabase, type TestRedis, testRedis } from '@spacecadet/db/testing';
import type { SandboxChannel, SandboxFixture, SandboxGuild } from '@spacecadet/discord-sandbox';
import { testStackEnv } from '@spacecadet/testing';
import { loadWorkerConfig, type RunningWorker, startWorker } from '@spacecadet/worker';
import { FEATURES, type MinuteClock, voiceXpFeatureWith, WORKER_INTENTS } from '@spacecadet/worker/testing';
import { loadBenchEnv, pathAndHome, useLocalServices } from '../env.ts';
import {
  closeOnStop,
  logStep,
  printTable,
  repoRoot,
  reportHeadline,
  runBounded,
  snowflake,
  startBenchChild,
} from './lib.ts';

const GUILDS = 100;
const TALKING_A = 20;
const MUTED_A = 5;
const TALKING_B = 20;
const AFK = 5;
const PER_GUILD = TALKING_A + MUTED_A + TALKING_B + AFK;
const IN_VOICE = GUILDS * PER_GUILD;
const XP_PER_MINUTE = 10;
/** What the rule gives each minute: everyone talking with company, outside the AFK channel. */
const EARNERS = GUILDS * (TALKING_A + TALKING_B);
const RULE_XP = EARNERS * XP_PER_MINUTE;
const MINUTES = 4;
const CHURN = GUILDS * AFK * 2;
const SANDBOX_FLAG = '--sandbox';
const JOINED_AT = '2024-01-15T12:00:00.000Z';
const MINUTE_MS = 60_000;
const STORE_TIMEOUT_MS = 60_000;

const guildId = (g: number) => snowflake(3n, g);
const botRoleId = (g: number) => snowflake(5n, g);
/** Channel c (0: lounge, 1: briefing, 2: AFK) of guild g. */
const channelId = (g: number, c: number) => snowflake(6n, g * 3 + c);
/** Member i (0..PER_GUILD-1) of guild g. */
const memberId = (g: number, i: number) => snowflake(4n, g * PER_GUILD + i);
const GUILD_IDS = Array.from({ length: GUILDS }, (_, g) => guildId(g));
type Target = 'worker' | 'baseline';

function voiceChannel(g: number, c: number, name: string): SandboxChannel {
  return {
    id: channelId(g, c),
    type: 2,
    guild_id: guildId(g),
    name,
    position: c,
    parent_id: null,
    permission_overwrites: [],
    flags: 0,
    nsfw: false,
    last_message_id: null,
    rate_limit_per_user: 0,
    bitrate: 64000,
    user_limit: 0,
    rtc_region: null,
  } as unknown as SandboxChannel;
}

/** Where member i of a guild sits: channel and self-mute. */
function seatOf(i: number): { channel: number; muted: boolean } {
  if (i < TALKING_A) return { channel: 0, muted: false };
  if (i < TALKING_A + MUTED_A) return { channel: 0, muted: true };
  if (i < TALKING_A + MUTED_A + TALKING_B) return { channel: 1, muted: false };
  return { channel: 2, muted: false };
}

async function buildFixture(): Promise<SandboxFixture> {
  const sandbox = await import('@spacecadet/discord-sandbox');
  const fixture = sandbox.defaultFixture();
  const bot = fixture.users.find((user) => user.bot);
  if (!bot) throw new Error('the default fixture changed shape');
  fixture.users = [bot];
  fixture.guilds = GUILD_IDS.map((id, g): SandboxGuild => {
    const members = Array.from({ length: PER_GUILD }, (_, i) => memberId(g, i));
    for (const [i, userId] of members.entries())
      fixture.users.push(sandbox.makeUser(userId, `vox_${g}_${i}`, null, null));
    return {
      id,
      name: `Bench Guild ${g}`,
      icon: null,
      owner_id: bot.id,
      preferred_locale: 'en-US',
      roles: [
        sandbox.makeRole(id, '@everyone', 0, sandbox.EVERYONE_PERMISSIONS),
        sandbox.makeBotRole(botRoleId(g), 1, bot.id, sandbox.BOT_ROLE_PERMISSIONS),
      ],
      channels: [voiceChannel(g, 0, 'Lounge'), voiceChannel(g, 1, 'Briefing'), voiceChannel(g, 2, 'AFK')],
      afk_channel_id: channelId(g, 2),
      members: [
        { user_id: bot.id, roles: [botRoleId(g)], nick: null, joined_at: JOINED_AT },
        ...members.map((user_id) => ({ user_id, roles: [], nick: null, joined_at: JOINED_AT })),
      ],
      voice_states: members.map((user_id, i) => ({
        user_id,
        channel_id: channelId(g, seatOf(i).channel),
        session_id: `s${user_id}`,
        mute: false,
        deaf: false,
        self_mute: seatOf(i).muted,
        self_deaf: false,
        self_video: false,
        suppress: false,
        request_to_speak_timestamp: null,
      })),
    };
  });
  return fixture;
}

/** The child: two sandboxes; on request the AFK members mute and unmute themselves. */
async function sandboxChild(): Promise<void> {
  const { startSandbox } = await import('@spacecadet/discord-sandbox');
  const fixture = await buildFixture();
  const sandboxes = new Map(
    await Promise.all(
      (['worker', 'baseline'] as const).map(
        async (target) =>
          [target, await startSandbox({ port: 0, fixture: structuredClone(fixture) })] as const,
      ),
    ),
  );
  const afkMembers = GUILD_IDS.flatMap((id, g) =>
    Array.from({ length: AFK }, (_, a) => ({
      guild: id,
      user: memberId(g, PER_GUILD - AFK + a),
      channel: channelId(g, 2),
    })),
  );
  const churn = async (target: Target) => {
    const sandbox = sandboxes.get(target);
    if (!sandbox) throw new Error(`no sandbox ${target}`);
    const voice = async (member: (typeof afkMembers)[number], selfMute: boolean) => {
      const answer = await fetch(`${sandbox.url}/_sandbox/voice`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: member.guild,
          user_id: member.user,
          channel_id: member.channel,
          self_mute: selfMute,
        }),
      });
      if (!answer.ok) throw new Error(`voice ${answer.status}: ${await answer.text()}`);
    };
    await runBounded(afkMembers.length, 25, async (index) => {
      const member = afkMembers[index];
      if (!member) return;
      await voice(member, true);
      await voice(member, false);
    });
  };
  process.on('message', (message: { bench?: string; id: number; target: Target }) => {
    if (message?.bench !== 'churn') return;
    void churn(message.target).then(
      () => process.send?.({ bench: 'churned', id: message.id }),
      (error: unknown) => {
        console.error(error);
        process.exit(1);
      },
    );
  });
  const stop = () =>
    void Promise.allSettled([...sandboxes.values()].map((sandbox) => sandbox.close())).finally(() =>
      process.exit(0),
    );
  process.once('SIGTERM', stop).once('disconnect', stop);
  process.send?.({
    bench: 'ready',
    apiBase: Object.fromEntries([...sandboxes].map(([target, sandbox]) => [target, sandbox.apiBase])),
  });
}

async function startSandboxChild() {
  const { child, ready, died, stop } = await startBenchChild<{ apiBase: Record<Target, string> }>(
    join(import.meta.dirname, 'voice.ts'),
    SANDBOX_FLAG,
    pathAndHome(),
  );
  const waiting = new Map<number, () => void>();
  child.on('message', (message: { bench?: string; id: number }) => {
    if (message?.bench === 'churned') waiting.get(message.id)?.();
  });
  let nextId = 0;
  return {
    apiBase: ready.apiBase,
    churn(target: Target): Promise<void> {
      const id = nextId++;
      const done = new Promise<void>((resolve) => waiting.set(id, resolve));
      child.send({ bench: 'churn', id, target });
      return Promise.race([done, died]).finally(() => waiting.delete(id));
    },
    stop,
  };
}

/** Minutes this script ends: the worker's voice XP ticks when `nextMinute` is called. */
function benchClock() {
  let now = Math.floor(Date.now() / MINUTE_MS) * MINUTE_MS + MINUTE_MS / 2;
  const ticks = new Set<(minuteEnd: number) => Promise<void>>();
  const clock: MinuteClock = {
    now: () => now,
    everyMinute(tick) {
      ticks.add(tick);
      return () => ticks.delete(tick);
    },
  };
  return {
    clock,
    async nextMinute() {
      const end = Math.floor(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS;
      now = end + 1;
      await Promise.all([...ticks].map((tick) => tick(end)));
    },
  };
}

type DiscordClient = RunningWorker['client'];
interface DiscordModule {
  Client: new (options: { intents: readonly number[]; rest: { api: string } }) => DiscordClient;
  Events: { ClientReady: 'clientReady' };
}

/** Counts a client's VOICE_STATE_UPDATE packets; resolves once a total is reached. */
function voiceUpdates(client: DiscordClient) {
  let count = 0;
  const waiting: Array<[number, () => void]> = [];
  client.on('raw', (packet: { t?: string }) => {
    if (packet.t !== 'VOICE_STATE_UPDATE') return;
    count += 1;
    for (const [total, resolve] of waiting) if (count >= total) resolve();
  });
  return {
    get count() {
      return count;
    },
    until(total: number): Promise<void> {
      if (count >= total) return Promise.resolve();
      return new Promise((resolve) => waiting.push([total, resolve]));
    },
  };
}

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

async function main(): Promise<void> {
  loadBenchEnv();
  useLocalServices();
  const started = Date.now();
  console.log(
    `voice: ${IN_VOICE} members in voice across ${GUILDS} servers (${EARNERS} earning by the rule), ${XP_PER_MINUTE} XP a minute; ${MINUTES} minutes, ${CHURN} voice updates each`,
  );
  let sandbox: Awaited<ReturnType<typeof startSandboxChild>> | null = null;
  let database: TestDatabase | null = null;
  let redis: TestRedis | null = null;
  let worker: RunningWorker | null = null;
  let baseline: DiscordClient | null = null;
  let poller: ReturnType<typeof createDb> | null = null;
  const close = closeOnStop(async () => {
    await baseline?.destroy().catch(() => {});
    await worker?.close().catch(() => {});
    await poller?.close().catch(() => {});
    await Promise.allSettled([sandbox?.stop(), redis?.close()]);
    await database?.close().catch(() => {});
  });
  try {
    let since = Date.now();
    const sandboxStarting = startSandboxChild();
    [database, redis] = await Promise.all([createTestDatabase('bench_voice'), testRedis()]);
    await database.db.insert(levelingSettings).values(
      GUILD_IDS.map((id) => ({
        guildId: id,
        enabled: true,
        voiceXpPerMinute: XP_PER_MINUTE,
        voiceMinMembers: 2,
        xpMultiplier: 1,
      })),
    );
    sandbox = await sandboxStarting;
    logStep('database, Redis prefix and sandboxes', since);

    // The baseline: bare discord.js with the worker's intents, receiving the same minutes' events.
    since = Date.now();
    const resolved = createRequire(join(repoRoot, 'apps', 'worker', 'package.json')).resolve('discord.js');
    const discord = (await import(pathToFileURL(resolved).href)) as DiscordModule;
    baseline = new discord.Client({ intents: [...WORKER_INTENTS], rest: { api: sandbox.apiBase.baseline } });
    const baselineReady = once(baseline, discord.Events.ClientReady);
    await baseline.login('sandbox-bot-token');
    await baselineReady;
    const baselineUpdates = voiceUpdates(baseline);
    const baselineCpu: number[] = [];
    for (let minute = 1; minute <= MINUTES; minute++) {
      const cpu = process.cpuUsage();
      await sandbox.churn('baseline');
      await baselineUpdates.until(CHURN * minute);
      baselineCpu.push(cpuMs(process.cpuUsage(cpu)));
    }
    await baseline.destroy();
    baseline = null;
    logStep('baseline minutes', since);

    since = Date.now();
    const minutes = benchClock();
    const features = FEATURES.map((feature) =>
      feature.name === 'voice-xp' ? voiceXpFeatureWith(minutes.clock) : feature,
    );
    worker = await startWorker(
      loadWorkerConfig(testStackEnv(database, redis, { apiBase: sandbox.apiBase.worker })),
      {
        features,
      },
    );
    await worker.gateway;
    logStep('worker ready', since);
    poller = createDb(database.url, { max: 1, applicationName: 'bench-voice-poll' });
    const pool = poller.pool;
    const stored = async () => {
      const result = await pool.query<{ xp: string | null; minutes: string | null }>(
        'select sum(xp) as xp, sum(voice_minutes) as minutes from member_daily_xp',
      );
      const row = result.rows[0];
      return { xp: Number(row?.xp ?? 0), minutes: Number(row?.minutes ?? 0) };
    };
    const storedReaches = async (minutesTotal: number) => {
      const deadline = Date.now() + STORE_TIMEOUT_MS;
      for (;;) {
        const now = await stored();
        if (now.minutes >= minutesTotal || Date.now() > deadline) return now;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    };
    const workerUpdates = voiceUpdates(worker.client);
    // Not a full minute for anyone: the worker saw them from its start.
    await minutes.nextMinute();
    const first = await storedReaches(0);
    const rows: Array<{ xp: number; minutes: number; cpu: number }> = [];
    let before = first;
    for (let minute = 1; minute <= MINUTES; minute++) {
      const cpu = process.cpuUsage();
      await sandbox.churn('worker');
      await workerUpdates.until(CHURN * minute);
      await minutes.nextMinute();
      const after = await storedReaches(before.minutes + EARNERS);
      rows.push({
        xp: after.xp - before.xp,
        minutes: after.minutes - before.minutes,
        cpu: cpuMs(process.cpuUsage(cpu)),
      });
      before = after;
    }
    // Anything credited twice would arrive after the expected total: look once more after a flush.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    const last = await stored();
    const extra = last.xp - before.xp;

    const perThousand = (ms: number) => (ms / IN_VOICE) * 1000;
    printTable([
      ['minute', 'XP written', 'rule', 'ratio', 'voice minutes', 'worker CPU ms', 'baseline CPU ms'],
      ['0 (not full)', String(first.xp), '0', '-', String(first.minutes), '-', '-'],
      ...rows.map((row, i) => [
        String(i + 1),
        String(row.xp),
        String(RULE_XP),
        (row.xp / RULE_XP).toFixed(3),
        String(row.minutes),
        row.cpu.toFixed(0),
        (baselineCpu[i] ?? Number.NaN).toFixed(0),
      ]),
    ]);
    const written = rows.reduce((sum, row) => sum + row.xp, 0) + first.xp + extra;
    const exact = written / (RULE_XP * MINUTES);
    const workerCpu = rows.reduce((sum, row) => sum + row.cpu, 0) / MINUTES;
    const baseCpu = baselineCpu.reduce((sum, ms) => sum + ms, 0) / MINUTES;
    const holds = written === RULE_XP * MINUTES && rows.every((row) => row.minutes === EARNERS);
    console.log(
      `  per minute per 1,000 members in voice: worker ${perThousand(workerCpu).toFixed(1)} ms CPU, bare discord.js ${perThousand(baseCpu).toFixed(1)} ms (events only); ${Math.round((Date.now() - started) / 1000)} s in all`,
    );
    reportHeadline(
      'voice',
      `XP written per minute ÷ rule = ${exact.toFixed(3)} (goal 1.0 exactly: ${holds ? 'holds' : 'DOES NOT HOLD'}); worker CPU ${perThousand(workerCpu).toFixed(1)} ms a minute per 1,000 members in voice vs bare discord.js ${perThousand(baseCpu).toFixed(1)} ms`,
    );
    if (!holds) process.exitCode = 1;
  } finally {
    await close();
  }
}

if (process.argv.includes(SANDBOX_FLAG)) await sandboxChild();
else await main();
