/**
 * The `/rank` card, two figures from one run:
 *
 * 1. Render: `renderRankCard` (draw + PNG encode, @napi-rs/canvas) in this process, RENDERS
 *    cards after WARMUP, with and without an avatar picture: p50 and p99.
 * 2. Answers a second through the real worker (`startWorker`, every feature, in this process)
 *    and the sandbox: members run `/rank` via `POST /_sandbox/commands` with CONCURRENCY in
 *    flight for SECONDS. The card answer (a member with XP: rank query, avatar fetched from the
 *    sandbox's CDN, render, multipart upload) is measured beside the same-run baseline, the text
 *    answer `/rank` gives a member without XP (the same command, rank query and callback, no
 *    card). Phases alternate (text, card) over ROUNDS rounds; medians count. The ratio is
 *    printed, not judged (the card is meant to cost more: an image per answer); the goal is the
 *    card answer's p99 within Discord's 3 s. Everything (sandbox, API, worker, this client)
 *    shares one process and event loop, so the rate is a floor. First run: ~10 ms a render,
 *    45 card answers/s vs 530 text answers/s (0.08x), card p99 350 ms, on a busy 2-core machine.
 */

import { RANK_CARD_LAYOUT, rankCardModel, totalXpForLevel } from '@spacecadet/core';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { defaultFixture, SANDBOX_IDS, type SandboxFixture } from '@spacecadet/discord-sandbox';
import { renderRankCard } from '@spacecadet/rank-card';
import { loadAvatar } from '../../apps/worker/src/features/leveling/rank-card.ts';
import {
  elapsedMs,
  ms,
  printTable,
  ratio,
  reportHeadline,
  runBounded,
  type Summary,
  summarize,
  waitFor,
} from './lib.ts';
import { type Stack, startStack } from './stack.ts';

const WARMUP = 20;
const RENDERS = 300;
const SECONDS = 5;
const ROUNDS = 3;
const CONCURRENCY = 8;
const MEMBERS = 200;
const ANSWER_WINDOW_MS = 3_000;

const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.general;

/** The default world plus MEMBERS members (with avatars) of Sandbox Station: half earn XP, half not. */
function fixtureWithMembers(): { fixture: SandboxFixture; ranked: string[]; unranked: string[] } {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((guild) => guild.id === GUILD);
  if (!station) throw new Error('fixture changed: no Sandbox Station');
  const ids = Array.from({ length: MEMBERS }, (_, i) => `2200000000${String(i).padStart(8, '0')}`);
  for (const [i, id] of ids.entries()) {
    fixture.users.push({
      id,
      username: `cadet${i}`,
      discriminator: '0',
      global_name: `Cadet ${i}`,
      avatar: `a${String(i).padStart(31, '0')}`,
    });
    station.members.push({ user_id: id, roles: [], nick: null, joined_at: '2024-01-01T00:00:00.000Z' });
  }
  return { fixture, ranked: ids.slice(0, MEMBERS / 2), unranked: ids.slice(MEMBERS / 2) };
}

async function renderTimes(avatar: Awaited<ReturnType<typeof loadAvatar>>): Promise<Summary> {
  const times: number[] = [];
  for (let i = 0; i < WARMUP + RENDERS; i++) {
    const model = rankCardModel({ username: `Cadet ${i}`, rank: i + 1, totalXp: 150 * i });
    const started = performance.now();
    const png = await renderRankCard(model, { accent: 0x5865f2, avatar });
    if (png.length === 0) throw new Error('empty PNG');
    if (i >= WARMUP) times.push(elapsedMs(started));
  }
  return summarize(times);
}

interface Phase {
  perSecond: number;
  latency: Summary;
  failed: number;
}

/** `/rank` by members in turn for SECONDS with CONCURRENCY in flight; `check` says an answer is right. */
async function answers(
  stack: Stack,
  members: readonly string[],
  check: (message: { content?: string; attachments?: Array<{ filename: string }> } | null) => boolean,
): Promise<Phase> {
  const latencies: number[] = [];
  let failed = 0;
  const started = performance.now();
  await runBounded(
    Number.MAX_SAFE_INTEGER,
    CONCURRENCY,
    async (i) => {
      const sent = performance.now();
      const res = await fetch(`${stack.sandbox.url}/_sandbox/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: GUILD,
          channel_id: CHANNEL,
          user_id: members[i % members.length],
          name: 'rank',
        }),
      });
      const outcome = (await res.json()) as { responded?: boolean; message?: Parameters<typeof check>[0] };
      if (res.ok && outcome.responded && check(outcome.message ?? null)) latencies.push(elapsedMs(sent));
      else failed += 1;
    },
    SECONDS * 1000,
  );
  const seconds = elapsedMs(started) / 1000;
  return { perSecond: latencies.length / seconds, latency: summarize(latencies), failed };
}

const median = (values: readonly number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

async function main(): Promise<void> {
  const { fixture, ranked, unranked } = fixtureWithMembers();
  console.log(
    `rank-card: ${RENDERS} renders after ${WARMUP} warm-up; then ${ROUNDS} rounds of ${SECONDS} s of /rank (text, then card) with ${CONCURRENCY} in flight, ${MEMBERS} members`,
  );
  const stack = await startStack({ fixture, withWorker: true });
  try {
    const avatar = await loadAvatar(
      stack.sandbox.cdnBase,
      { userId: SANDBOX_IDS.users.nia, guildId: GUILD, userAvatar: 'bench', memberAvatar: null },
      1000,
    );
    if (!avatar) throw new Error('the sandbox CDN gave no avatar');
    const withAvatar = await renderTimes(avatar);
    const drawnAvatar = await renderTimes(null);

    const db = stack.database.db;
    await db.insert(levelingSettings).values({ guildId: GUILD, enabled: true });
    await db
      .insert(memberXp)
      .values(ranked.map((userId, i) => ({ guildId: GUILD, userId, level: 3, xp: totalXpForLevel(3) + i })));
    await waitFor('/rank to be registered', async () =>
      stack.sandbox.world.globalCommands.some((c) => c.name === 'rank') ||
      [...stack.sandbox.world.guildCommands.values()].flat().some((c) => c.name === 'rank')
        ? true
        : undefined,
    );

    const isText = (m: Parameters<Parameters<typeof answers>[2]>[0]) =>
      (m?.content ?? '').startsWith('You have no XP yet') && (m?.attachments ?? []).length === 0;
    const isCard = (m: Parameters<Parameters<typeof answers>[2]>[0]) =>
      (m?.attachments ?? []).some((a) => a.filename === 'rank-card.png');
    // Warm-up of both paths (caches, JIT, the first font registration).
    await runBounded(20, CONCURRENCY, async (i) => {
      await fetch(`${stack.sandbox.url}/_sandbox/commands`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: GUILD,
          channel_id: CHANNEL,
          user_id: (i % 2 ? ranked : unranked)[i % (MEMBERS / 2)],
          name: 'rank',
        }),
      }).then((r) => r.text());
    });
    const text: Phase[] = [];
    const card: Phase[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      text.push(await answers(stack, unranked, isText));
      card.push(await answers(stack, ranked, isCard));
    }
    const textRate = median(text.map((p) => p.perSecond));
    const cardRate = median(card.map((p) => p.perSecond));
    const cardP99 = median(card.map((p) => p.latency.p99));
    const textP99 = median(text.map((p) => p.latency.p99));
    const failed = [...text, ...card].reduce((sum, p) => sum + p.failed, 0);

    printTable([
      ['measure', 'n', 'p50', 'p99', 'max'],
      [
        'render (draw + PNG), sandbox avatar',
        String(withAvatar.n),
        ms(withAvatar.p50),
        ms(withAvatar.p99),
        ms(withAvatar.max),
      ],
      [
        'render (draw + PNG), drawn avatar',
        String(drawnAvatar.n),
        ms(drawnAvatar.p50),
        ms(drawnAvatar.p99),
        ms(drawnAvatar.max),
      ],
    ]);
    printTable([
      ['/rank answers (median of rounds)', 'per second', 'p50', 'p99', 'vs baseline'],
      [
        'baseline: text answer (no XP)',
        textRate.toFixed(1),
        ms(median(text.map((p) => p.latency.p50))),
        ms(textP99),
        '1.00x',
      ],
      [
        'card answer (rank-card.png)',
        cardRate.toFixed(1),
        ms(median(card.map((p) => p.latency.p50))),
        ms(cardP99),
        ratio(cardRate, textRate),
      ],
    ]);
    console.log(
      `  card size ${RANK_CARD_LAYOUT.width}x${RANK_CARD_LAYOUT.height}; failed answers: ${failed}`,
    );
    const share = cardRate / textRate;
    const goals = [
      [`card answer p99 ${ms(cardP99)} within Discord's ${ANSWER_WINDOW_MS} ms`, cardP99 <= ANSWER_WINDOW_MS],
    ] as const;
    for (const [goal, met] of goals) console.log(`  goal ${met ? 'met' : 'MISSED'}: ${goal}`);
    reportHeadline(
      'rank-card',
      `render p50 ${ms(withAvatar.p50)} p99 ${ms(withAvatar.p99)}; /rank ${cardRate.toFixed(1)} card answers/s vs ${textRate.toFixed(1)} text answers/s = ${share.toFixed(2)}x, card p99 ${ms(cardP99)} (goal <= ${ANSWER_WINDOW_MS} ms); failed ${failed}`,
    );
    if (failed > 0) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

await main();
