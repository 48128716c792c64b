/**
 * Member clicks on an admin's own role menu (buttons, mode `unique`) under Discord's global REST
 * limit of 50 requests a second, at 10 and at 100 clicks a second, beside the sandbox's own REST
 * round trip measured in the same run: the same goals as the color panel (click-latency).
 *
 * The real path end to end: ada signs in through the sandbox's OAuth2 page, creates the menu
 * through the API (POST /role-menus, eight roles of the server just below the bot's) and posts it
 * (POST /role-menus/:id/post, the real worker, discord.js + BullMQ, against the sandbox, whose
 * global limit is then turned on; interaction answers are exempt, as on Discord). Members click
 * the posted buttons via `POST /_sandbox/interactions` on a fixed schedule (open loop: a click is
 * sent when due, whatever earlier ones are doing; its times count from when it was due). In each
 * phase every click is a different member's; the 100/s phase reuses the 10/s phase's members, so
 * the first of them swap roles (the menu is unique: the older role goes).
 *
 * - click -> first answer: until the sandbox answers the click (the bot's first callback, the
 *   private deferral). Goal: p99 at most 100 ms at both rates.
 * - click -> outcome: until "… You now have …" is edited into that answer.
 * - click -> role visible: until the member's GUILD_MEMBER_UPDATE with the role goes out.
 * - role changes a second at 100 clicks/s, over the sandbox's global-limit windows, against the
 *   50/s limit. Goal: at least 0.95x.
 * - at the end every member holds exactly one role of the menu: the last one clicked.
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
  timedClick,
  waitForBotPresence,
} from './discord-load.ts';
import { latencyRow, ms, printTable, reportHeadline, summarize, waitFor } from './lib.ts';
import { runJobThroughApi, startStack } from './stack.ts';

const { seconds: SECONDS } = loadBenchEnv().click;
const RATES = [10, 100] as const;
const MEMBERS = Math.max(...RATES) * SECONDS;
const BASELINE_SECONDS = 2;
const ANSWER_GOAL_MS = 100;
const SETTLE_TIMEOUT_MS = 30_000 + SECONDS * 4_000;
const OPTIONS = 8;

const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.roles;
const BOT_AUTH = { authorization: 'Bot sandbox-bot-token' };
/** A change of a member's roles: one role added or removed, or the member's roles set at once. */
const ROLE_CHANGE = /^\/guilds\/\d+\/members\/\d+(\/roles\/\d+)?$/;

async function main(): Promise<void> {
  const { fixture, userIds, roleIds } = crowdFixture({
    members: MEMBERS,
    userIdPrefix: '2300000000',
    username: 'picker',
    roleIdPrefix: '3200000000',
    roles: Array.from({ length: OPTIONS }, (_, i) => ({ name: `Team ${i + 1}` })),
  });
  console.log(
    `role-menus: ${MEMBERS} members, a unique menu of ${OPTIONS} buttons; ${SECONDS} s at each of ${RATES.join(' and ')} clicks/s, under a global limit of ${GLOBAL_LIMIT} requests/s`,
  );
  const stack = await startStack({ fixture, withWorker: true });
  // The outcome is edited into the deferred answer: "… You now have …".
  const seen = observeMembers(stack, SETTLE_TIMEOUT_MS, (content) => content.includes('You now have'));
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    await waitForBotPresence(stack, ada, GUILD);
    const menu = await stack.api<{ id: string }>('POST', `/api/guilds/${GUILD}/role-menus`, ada, {
      title: 'Pick your team',
      description: 'One team at a time.',
      channel_id: CHANNEL,
      style: 'buttons',
      mode: 'unique',
      options: roleIds.map((role_id, i) => ({ role_id, label: `Team ${i + 1}` })),
    });
    const started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/role-menus/${menu.id}/post`);
    const postMs = performance.now() - started;
    const menus = await stack.api<{ menus: Array<{ id: string; posted: { message_ids: string[] } | null }> }>(
      'GET',
      `/api/guilds/${GUILD}/role-menus`,
      ada,
    );
    const messageId = menus.menus.find((candidate) => candidate.id === menu.id)?.posted?.message_ids[0];
    if (!messageId) throw new Error('role-menus.post finished without a posted message');
    const posted = (await (
      await fetch(`${stack.sandbox.apiBase}/v10/channels/${CHANNEL}/messages/${messageId}`, {
        headers: BOT_AUTH,
      })
    ).json()) as { components?: Array<{ components?: Array<{ custom_id?: string }> }> };
    const buttons = (posted.components ?? []).flatMap((row) =>
      (row.components ?? []).flatMap((component) => {
        const roleId = component.custom_id?.split(':')[2];
        return component.custom_id && roleId ? [{ customId: component.custom_id, roleId }] : [];
      }),
    );
    if (buttons.length !== OPTIONS)
      throw new Error(`the posted menu has ${buttons.length} buttons, not ${OPTIONS}`);
    console.log(`  setup: post menu ${ms(postMs)} (message ${messageId})`);

    const lastPick = new Map<string, string>();
    const click = async (userId: string, turn: number, due: number) => {
      let button = buttons[turn % buttons.length] ?? buttons[0];
      if (!button) throw new Error('no button');
      if (button.roleId === lastPick.get(userId)) button = buttons[(turn + 1) % buttons.length] ?? button;
      lastPick.set(userId, button.roleId);
      const clickTarget = {
        guildId: GUILD,
        channelId: CHANNEL,
        messageId,
        userId,
        customId: button.customId,
      };
      return timedClick(stack, seen, clickTarget, button.roleId, due);
    };
    const roundTrip = memberRoundTrip(stack, GUILD, userIds);

    const phase = async (rate: number, turn: number) => {
      await setGlobalLimit(stack, null);
      const baseline = await openLoop(rate, Math.max(20, rate * BASELINE_SECONDS), roundTrip);
      await setGlobalLimit(stack, GLOBAL_LIMIT);
      seen.requestsSinceMark();
      const clicks = await openLoop(rate, rate * SECONDS, (i, due) =>
        click(userIds[i % MEMBERS] ?? '', i + turn, due),
      );
      const calls = seen.requestsSinceMark();
      const roleChanges = calls.filter(
        (call) =>
          call.method !== 'GET' && ROLE_CHANGE.test(call.path) && call.status >= 200 && call.status < 300,
      );
      const good = clicks.results.filter((sample) => sample.ok);
      return {
        rate,
        base: summarize(baseline.results),
        answer: summarize(clicks.results.map((sample) => sample.answerMs)),
        outcome: summarize(good.map((sample) => sample.outcomeMs)),
        visible: summarize(good.map((sample) => sample.visibleMs)),
        failed: clicks.results.length - good.length,
        roleChanges: roleChanges.length,
        throughput: perSecondOverWindows(roleChanges.map((call) => Date.parse(call.at))),
        global429s: calls.filter((call) => call.status === 429).length,
        lateP99: clicks.lateP99,
      };
    };

    const slow = await phase(10, 0);
    const fast = await phase(100, 3);
    await setGlobalLimit(stack, null);
    seen.stop();

    const menuRoles = new Set(roleIds);
    const wrongCount = () =>
      [...lastPick].filter(([userId, roleId]) => {
        const roles = memberRolesAmong(stack, GUILD, userId, menuRoles);
        return roles.length !== 1 || roles[0] !== roleId;
      }).length;
    const wrong =
      (await waitFor(
        'every member to hold their last pick only',
        async () => (wrongCount() === 0 ? 0 : undefined),
        SETTLE_TIMEOUT_MS,
      ).catch(() => undefined)) ?? wrongCount();

    printTable([
      ['measure @clicks/s', 'n', 'p50', 'p99', 'max', 'p99 vs baseline'],
      ...[slow, fast].flatMap((result) => [
        latencyRow('baseline: sandbox REST GET member', result.rate, result.base, result.base),
        latencyRow('click -> first answer', result.rate, result.answer, result.base),
        latencyRow('click -> outcome edited in', result.rate, result.outcome, result.base),
        latencyRow('click -> role visible (gateway)', result.rate, result.visible, result.base),
      ]),
    ]);
    for (const result of [slow, fast]) {
      const perSecond = result.throughput.perSecond;
      console.log(
        `  @${result.rate} clicks/s: ${result.roleChanges} role changes, ${perSecond.toFixed(1)}/s vs ${GLOBAL_LIMIT}/s limit = ${(perSecond / GLOBAL_LIMIT).toFixed(2)}x over ${result.throughput.windows} limit windows; ${result.global429s} global 429s; clicks sent late by p99 ${ms(result.lateP99)}`,
      );
    }
    const failed = slow.failed + fast.failed;
    console.log(`  failed clicks: ${failed}; members with a wrong final role: ${wrong}/${lastPick.size}`);
    const share = fast.throughput.perSecond / GLOBAL_LIMIT;
    const goals = [
      [`answer p99 @10/s ${ms(slow.answer.p99)} <= ${ANSWER_GOAL_MS} ms`, slow.answer.p99 <= ANSWER_GOAL_MS],
      [`answer p99 @100/s ${ms(fast.answer.p99)} <= ${ANSWER_GOAL_MS} ms`, fast.answer.p99 <= ANSWER_GOAL_MS],
      [`role changes @100/s ${share.toFixed(2)}x >= ${THROUGHPUT_GOAL}x`, share >= THROUGHPUT_GOAL],
    ] as const;
    for (const [goal, met] of goals) console.log(`  goal ${met ? 'met' : 'MISSED'}: ${goal}`);
    reportHeadline(
      'role-menus',
      `answer p99 @10/s ${ms(slow.answer.p99)}, @100/s ${ms(fast.answer.p99)} (goal <= ${ANSWER_GOAL_MS} ms; sandbox RTT p99 ${ms(slow.base.p99)} / ${ms(fast.base.p99)}); role visible @10/s p50 ${ms(slow.visible.p50)} p99 ${ms(slow.visible.p99)}, @100/s p50 ${ms(fast.visible.p50)} p99 ${ms(fast.visible.p99)}; ${fast.throughput.perSecond.toFixed(1)} role changes/s vs ${GLOBAL_LIMIT}/s limit = ${share.toFixed(2)}x (goal >= ${THROUGHPUT_GOAL}x); failed ${failed}, wrong ${wrong}`,
    );
    // A goal missed fails the bench, as a failed click does.
    if (failed > 0 || wrong > 0 || goals.some(([, met]) => !met)) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

await main();
