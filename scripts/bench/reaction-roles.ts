/**
 * Member reactions on the reaction-roles color panel under Discord's global REST limit of 50
 * requests a second, at 10 and at 100 reactions a second, beside the sandbox's own REST round
 * trip measured in the same run.
 *
 * The real path end to end: ada signs in through the sandbox's OAuth2 page, saves the two lists
 * and their channel through the API, and posts the panels (the real worker, discord.js + BullMQ,
 * against the sandbox, whose global limit is then turned on). Members react to the posted color
 * panel via `POST /_sandbox/reactions` on a fixed schedule (open loop: a reaction is sent when due,
 * whatever earlier ones are doing; its times count from when it was due). In each phase every
 * reaction is a different member's; the 100/s phase reuses the 10/s phase's members, so the first
 * of them swap colors (the bot removes their older color role and reaction).
 *
 * - reaction -> role visible: until the member's GUILD_MEMBER_UPDATE with the role goes out on
 *   the gateway, as a member's Discord client would see it. p50 and p99 at both rates.
 * - role changes a second at 100 reactions/s (twice what the limit allows), over the sandbox's
 *   global-limit windows, against the 50/s limit, and all the writes the reactions cost (a
 *   swap also removes the member's older reaction, in the same limit). Goal: the writes at
 *   least 0.95x of the limit, as for clicks; role changes alone stay below by the swaps' share.
 * - at the end every member holds exactly one color role of the list: the last one reacted.
 */
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { loadBenchEnv } from '../env.ts';
import {
  crowdFixture,
  GLOBAL_LIMIT,
  memberRolesAmong,
  memberRoundTrip,
  observeMembers,
  openLoop,
  perSecondOverWindows,
  setGlobalLimit,
  THROUGHPUT_GOAL,
  waitForBotPresence,
} from './discord-load.ts';
import { latencyRow, ms, printTable, reportHeadline, summarize, waitFor } from './lib.ts';
import { runJobThroughApi, startStack } from './stack.ts';

const { seconds: SECONDS } = loadBenchEnv().click;
const RATES = [10, 100] as const;
const MEMBERS = Math.max(...RATES) * SECONDS;
const BASELINE_SECONDS = 2;
const SETTLE_TIMEOUT_MS = 30_000 + SECONDS * 4_000;

const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.roles;
/** A change of a member's roles: one role added or removed, or the member's roles set at once. */
const ROLE_CHANGE = /^\/guilds\/\d+\/members\/\d+(\/roles\/\d+)?$/;
const COLOR_EMOJIS = ['🔴', '🟠', '🟡', '🟢', '🔵', '🟣', '🟤', '⚫'] as const;

/** "3 DELETE /channels/:id/messages/:id/reactions/:emoji/:id, …": calls counted by route. */
function countKinds(calls: ReadonlyArray<{ method: string; path: string }>): string {
  const counts = new Map<string, number>();
  for (const call of calls) {
    const kind = `${call.method} ${call.path.replace(/\/\d{5,}/g, '/:id').replace(/\/reactions\/[^/]+/, '/reactions/:emoji')}`;
    counts.set(kind, (counts.get(kind) ?? 0) + 1);
  }
  return [...counts].map(([kind, count]) => `${count} ${kind}`).join(', ');
}

async function main(): Promise<void> {
  const {
    fixture,
    userIds,
    roleIds: colorRoleIds,
  } = crowdFixture({
    members: MEMBERS,
    userIdPrefix: '2200000000',
    username: 'reactor',
    roleIdPrefix: '3100000000',
    roles: COLOR_EMOJIS.map((_, i) => ({ name: `Color ${i + 1}`, color: 0x111111 * (i + 1) })),
  });
  console.log(
    `reaction-roles: ${MEMBERS} members, ${COLOR_EMOJIS.length} colors; ${SECONDS} s at each of ${RATES.join(' and ')} reactions/s, under a global limit of ${GLOBAL_LIMIT} requests/s`,
  );
  const stack = await startStack({ fixture, withWorker: true });
  const seen = observeMembers(stack, SETTLE_TIMEOUT_MS);
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    await waitForBotPresence(stack, ada, GUILD);
    await stack.api('PUT', `/api/guilds/${GUILD}/reaction-roles`, ada, {
      color_roles: COLOR_EMOJIS.map((emoji, i) => ({
        emoji,
        role_id: colorRoleIds[i],
        label: `Color ${i + 1}`,
      })),
      personality_roles: [],
    });
    await stack.api('PUT', `/api/guilds/${GUILD}/reaction-roles/channel`, ada, {
      list: 'color_roles',
      channel_id: CHANNEL,
    });
    const started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/reaction-roles/post-panel`);
    const postMs = performance.now() - started;
    const state = await stack.api<{ panels: { color_roles: { message_ids: string[] } | null } }>(
      'GET',
      `/api/guilds/${GUILD}/reaction-roles`,
      ada,
    );
    const messageId = state.panels.color_roles?.message_ids[0];
    if (!messageId) throw new Error('post-panel finished without a color panel');
    console.log(`  setup: post panel ${ms(postMs)} (message ${messageId})`);

    const lastPick = new Map<string, number>();
    const react = async (userId: string, color: number, due: number) => {
      lastPick.set(userId, color);
      const visible = seen.roleVisible(userId, colorRoleIds[color] ?? '');
      const response = await fetch(`${stack.sandbox.url}/_sandbox/reactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: GUILD,
          channel_id: CHANNEL,
          message_id: messageId,
          user_id: userId,
          emoji: COLOR_EMOJIS[color],
        }),
      });
      await response.arrayBuffer();
      const at = await visible;
      return { ok: response.ok && Number.isFinite(at), visibleMs: at - due };
    };
    const roundTrip = memberRoundTrip(stack, GUILD, userIds);

    const phase = async (rate: number, turn: number) => {
      await setGlobalLimit(stack, null);
      const baseline = await openLoop(rate, Math.max(20, rate * BASELINE_SECONDS), roundTrip);
      await setGlobalLimit(stack, GLOBAL_LIMIT);
      seen.requestsSinceMark();
      const count = rate * SECONDS;
      const reactions = await openLoop(rate, count, (i, due) =>
        react(userIds[i % MEMBERS] ?? '', (i + turn) % COLOR_EMOJIS.length, due),
      );
      const calls = seen.requestsSinceMark();
      const roleChanges = calls.filter(
        (call) =>
          call.method !== 'GET' && ROLE_CHANGE.test(call.path) && call.status >= 200 && call.status < 300,
      );
      const good = reactions.results.filter((sample) => sample.ok);
      return {
        rate,
        base: summarize(baseline.results),
        visible: summarize(good.map((sample) => sample.visibleMs)),
        failed: reactions.results.length - good.length,
        roleChanges: roleChanges.length,
        throughput: perSecondOverWindows(roleChanges.map((call) => Date.parse(call.at))),
        /** Every write the reactions cost (role changes, and a swap's removal of the older reaction). */
        writes: perSecondOverWindows(
          calls
            .filter((call) => call.method !== 'GET' && call.status < 300)
            .map((call) => Date.parse(call.at)),
        ),
        /** Writes of any kind in the phase (role changes are `roleChanges` of them). */
        writeCount: calls.filter((call) => call.method !== 'GET' && call.status < 300).length,
        global429s: calls.filter((call) => call.status === 429).length,
        lateP99: reactions.lateP99,
        /** The bot's other calls in the phase, by kind (they share the global limit). */
        otherCalls: countKinds(calls.filter((call) => !roleChanges.includes(call))),
      };
    };

    const slow = await phase(10, 0);
    const fast = await phase(100, 3);
    await setGlobalLimit(stack, null);
    seen.stop();

    // Every member ends with exactly one color role of the list: the last one they reacted with.
    const colorRoles = new Set(colorRoleIds);
    const held = (userId: string) => memberRolesAmong(stack, GUILD, userId, colorRoles);
    const settled = await waitFor(
      'every member to hold their last color only',
      async () => {
        const wrong = [...lastPick].filter(([userId, color]) => {
          const roles = held(userId);
          return roles.length !== 1 || roles[0] !== colorRoleIds[color];
        });
        return wrong.length === 0 ? 0 : undefined;
      },
      SETTLE_TIMEOUT_MS,
    ).catch(() => undefined);
    const wrong =
      settled ??
      [...lastPick].filter(([userId, color]) => {
        const roles = held(userId);
        return roles.length !== 1 || roles[0] !== colorRoleIds[color];
      }).length;

    printTable([
      ['measure @reactions/s', 'n', 'p50', 'p99', 'max', 'p99 vs baseline'],
      ...[slow, fast].flatMap((result) => [
        latencyRow('baseline: sandbox REST GET member', result.rate, result.base, result.base),
        latencyRow('reaction -> role visible (gateway)', result.rate, result.visible, result.base),
      ]),
    ]);
    for (const result of [slow, fast]) {
      const perSecond = result.throughput.perSecond;
      console.log(
        `  @${result.rate} reactions/s: ${result.roleChanges} role changes, ${perSecond.toFixed(1)}/s vs ${GLOBAL_LIMIT}/s limit = ${(perSecond / GLOBAL_LIMIT).toFixed(2)}x over ${result.throughput.windows} limit windows; all writes ${result.writes.perSecond.toFixed(1)}/s = ${(result.writes.perSecond / GLOBAL_LIMIT).toFixed(2)}x; ${result.global429s} global 429s; reactions sent late by p99 ${ms(result.lateP99)}`,
      );
    }
    for (const result of [slow, fast]) {
      console.log(`  @${result.rate} reactions/s: the bot's other calls: ${result.otherCalls || 'none'}`);
    }
    const failed = slow.failed + fast.failed;
    console.log(
      `  failed reactions: ${failed}; members with a wrong final color role: ${wrong}/${lastPick.size}`,
    );
    // The goal is the limit's use: a swap's removal of the older reaction takes a slot of the
    // same 50/s that role changes need, so role changes alone stay below it by the swaps' share.
    const share = fast.writes.perSecond / GLOBAL_LIMIT;
    const met = share >= THROUGHPUT_GOAL;
    // With the limit fully used, role changes alone reach their share of the writes, no more:
    // 10% of the 100/s phase's members swap (+1 role removal, +1 reaction removal each).
    console.log(
      `  @100 reactions/s: role changes are ${fast.roleChanges}/${fast.writeCount} = ${(fast.roleChanges / fast.writeCount).toFixed(2)} of the writes, the most of the limit they can use while every write shares it`,
    );
    console.log(
      `  goal ${met ? 'met' : 'MISSED'}: writes (role changes and swap reaction removals) @100/s ${share.toFixed(2)}x >= ${THROUGHPUT_GOAL}x of the limit`,
    );
    reportHeadline(
      'reaction-roles',
      `role visible @10/s p50 ${ms(slow.visible.p50)} p99 ${ms(slow.visible.p99)}, @100/s p50 ${ms(fast.visible.p50)} p99 ${ms(fast.visible.p99)} (sandbox RTT p99 ${ms(slow.base.p99)} / ${ms(fast.base.p99)}); ${fast.throughput.perSecond.toFixed(1)} role changes/s (${(fast.throughput.perSecond / GLOBAL_LIMIT).toFixed(2)}x) and ${fast.writes.perSecond.toFixed(1)} writes/s in all vs ${GLOBAL_LIMIT}/s limit = ${share.toFixed(2)}x (goal >= ${THROUGHPUT_GOAL}x); failed ${failed}, wrong ${wrong}`,
    );
    // The goal missed fails the bench, as a failed reaction does.
    if (failed > 0 || wrong > 0 || !met) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

await main();
