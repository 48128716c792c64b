/**
 * Member clicks on the color panel under Discord's global REST limit of 50 requests a
 * second, at 10 and at 100 clicks a second, beside the sandbox's own REST round trip measured in
 * the same run.
 *
 * The real path end to end: ada signs in through the sandbox's OAuth2 page, the API enqueues
 * generate + post-panel, the real worker (discord.js + BullMQ) runs them against the sandbox,
 * whose global limit is then turned on (interaction answers exempt, as on Discord). Members click
 * the posted panel's buttons via `POST /_sandbox/interactions` on a fixed schedule (open loop: a
 * click is sent when due, whatever earlier ones are doing; its times count from when it was due).
 * Each click in a phase is a different member, so none has two clicks in flight.
 *
 * - click -> first answer: until the sandbox answers the click, which it does on the bot's first
 *   callback (for a pick, the ephemeral deferral). Goal: p99 at most 100 ms at both rates.
 * - click -> outcome: until the outcome ("You now have ...") is edited into that answer.
 * - click -> role visible: until the member's GUILD_MEMBER_UPDATE with the role goes out on the
 *   gateway, as a member's Discord client would see it.
 * - role changes a second at 100 clicks/s (twice what the limit allows), over the sandbox's
 *   global-limit windows, against the 50/s limit. Goal: at least 0.95x.
 * - edit lag: from the member's role change landing (the sandbox's 2xx) to the outcome edited into
 *   their answer. Sent through discord.js's own global queue, the edits would wait behind later
 *   role changes, about a tenth of them a whole window (up to 1 s). Goal: p90 under 250 ms at
 *   both rates.
 * - one member hammering: HAMMER_CLICKS clicks of one member at once (the limit off, discord.js's
 *   own 50 requests a second on): each click's final answer (the outcome, or "Still changing…"
 *   for one that cannot have its turn within a second). Goal: the slowest within Discord's 3 s.
 *
 * These goals were once duration asserts in the worker's functional tests (clicks-under-load,
 * color-roles-clicks), which then failed on a busy machine; the tests now check what happened.
 */
import { defaultFixture, SANDBOX_IDS, type SandboxFixture } from '@spacecadet/discord-sandbox';
import { loadBenchEnv } from '../env.ts';
import {
  clickComponent,
  GLOBAL_LIMIT,
  memberRolesAmong,
  memberRoundTrip,
  observeMembers,
  openLoop,
  type PanelButton,
  panelButtons,
  perSecondOverWindows,
  setGlobalLimit,
  THROUGHPUT_GOAL,
  type TimedClick,
  timedClick,
  waitForBotPresence,
} from './discord-load.ts';
import {
  elapsedMs,
  latencyRow,
  ms,
  percentile,
  printTable,
  reportHeadline,
  summarize,
  waitFor,
} from './lib.ts';
import { runJobThroughApi, type Stack, startStack } from './stack.ts';

const { seconds: SECONDS, warmup: WARMUP } = loadBenchEnv().click;
const RATES = [10, 100] as const;
/** One click per member in the busiest phase: no member ever has two clicks in flight. */
const MEMBERS = Math.max(...RATES) * SECONDS;
const BASELINE_SECONDS = 2;
const ANSWER_GOAL_MS = 100;
const EDIT_LAG_GOAL_MS = 250;
const HAMMER_CLICKS = 100;
const HAMMER_GOAL_MS = 3_000;
/** How long a click's outcome and role may take: the 100/s phase queues ~1 s of role changes per second. */
const SETTLE_TIMEOUT_MS = 30_000 + SECONDS * 2_000;

const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.roles;
const ROLE_CHANGE = /^\/guilds\/\d+\/members\/\d+\/roles\/\d+$/;

/** The default world plus MEMBERS members of Sandbox Station without a color. */
function fixtureWithCrowd(): { fixture: SandboxFixture; userIds: string[] } {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((guild) => guild.id === GUILD);
  if (!station) throw new Error('fixture changed: no Sandbox Station');
  const userIds = Array.from({ length: MEMBERS }, (_, i) => `2100000000${String(i).padStart(8, '0')}`);
  for (const [i, id] of userIds.entries()) {
    fixture.users.push({
      id,
      username: `cadet${i}`,
      discriminator: '0',
      global_name: `Cadet ${i}`,
      avatar: null,
    });
    station.members.push({ user_id: id, roles: [], nick: null, joined_at: '2024-01-01T00:00:00.000Z' });
  }
  return { fixture, userIds };
}

interface ClickSample extends TimedClick {
  userId: string;
  roleId: string;
}

async function main(): Promise<void> {
  const { fixture, userIds } = fixtureWithCrowd();
  console.log(
    `click-latency: ${MEMBERS} members; ${WARMUP} warm-up clicks, then ${SECONDS} s at each of ${RATES.join(' and ')} clicks/s, under a global limit of ${GLOBAL_LIMIT} requests/s`,
  );
  const stack = await startStack({ fixture, withWorker: true });
  const seen = observeMembers(stack, SETTLE_TIMEOUT_MS);
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    // The worker records bot presence from READY; the API refuses jobs (409) until it has.
    await waitForBotPresence(stack, ada, GUILD);
    await stack.api('PUT', `/api/guilds/${GUILD}/color-roles/channel`, ada, { channel_id: CHANNEL });
    let started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/color-roles/generate-roles`);
    const generateMs = elapsedMs(started);
    started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/color-roles/post-panel`);
    const postMs = elapsedMs(started);
    const { messageId, buttons } = await panelButtons(stack, ada, GUILD, CHANNEL);
    console.log(
      `  setup: generate ${ms(generateMs)}, post panel ${ms(postMs)}, ${buttons.length} color buttons`,
    );

    const lastPick = new Map<string, string>();
    /** A member's click on a color other than the one they picked last. */
    const click = async (userId: string, turn: number, due: number): Promise<ClickSample> => {
      let button = buttons[turn % buttons.length] as PanelButton;
      if (button.roleId === lastPick.get(userId))
        button = buttons[(turn + 1) % buttons.length] as PanelButton;
      lastPick.set(userId, button.roleId);
      const clickTarget = {
        guildId: GUILD,
        channelId: CHANNEL,
        messageId,
        userId,
        customId: button.customId,
      };
      const sample = await timedClick(stack, seen, clickTarget, button.roleId, due);
      return {
        ...sample,
        userId,
        roleId: button.roleId,
        ok: sample.ok && sample.content.startsWith('You now have the'),
      };
    };
    const roundTrip = memberRoundTrip(stack, GUILD, userIds);

    /**
     * The baseline at `rate` (the sandbox's REST round trip, global limit off so it is not
     * refused), then `rate` clicks a second for SECONDS with the limit on, each by its own member.
     */
    const phase = async (rate: number, firstMember: number) => {
      await setGlobalLimit(stack, null);
      const baseline = await openLoop(rate, Math.max(20, rate * BASELINE_SECONDS), roundTrip);
      await setGlobalLimit(stack, GLOBAL_LIMIT);
      seen.requestsSinceMark();
      const count = rate * SECONDS;
      const clicks = await openLoop(rate, count, (i, due) =>
        click(userIds[(firstMember + i) % MEMBERS] ?? '', firstMember + i, due),
      );
      const calls = seen.requestsSinceMark();
      const roleChanges = calls.filter(
        (call) => ROLE_CHANGE.test(call.path) && call.status >= 200 && call.status < 300,
      );
      const throughput = perSecondOverWindows(roleChanges.map((call) => Date.parse(call.at)));
      const samples = clicks.results;
      const good = samples.filter((sample) => sample.ok);
      // By the sandbox's clock: when the member's role add landed, and when the outcome was edited in.
      const editLags = good.flatMap((sample) => {
        const added = roleChanges.find(
          (call) =>
            call.method === 'PUT' && call.path.endsWith(`/members/${sample.userId}/roles/${sample.roleId}`),
        );
        const edited = stack.sandbox.world.interactions
          .get(sample.interactionId)
          ?.edits.find((edit) => edit.target === '@original');
        return added && edited ? [Date.parse(edited.at) - Date.parse(added.at)] : [];
      });
      return {
        rate,
        base: summarize(baseline.results),
        answer: summarize(samples.map((sample) => sample.answerMs)),
        outcome: summarize(good.map((sample) => sample.outcomeMs)),
        visible: summarize(good.map((sample) => sample.visibleMs)),
        editLag: { ...summarize(editLags), p90: percentileOf(editLags, 90) },
        failed: samples.length - good.length,
        roleChanges: roleChanges.length,
        throughput,
        global429s: calls.filter((call) => call.status === 429).length,
        lateP99: clicks.lateP99,
      };
    };

    await setGlobalLimit(stack, GLOBAL_LIMIT);
    await openLoop(10, WARMUP, (i, due) => click(userIds[i] ?? '', i, due));
    const slow = await phase(10, WARMUP);
    // Its first members already hold a color from the warm-up and the slow phase: theirs are swaps.
    const fast = await phase(100, 0);
    await setGlobalLimit(stack, null);

    // Each member must end with exactly one color role: the last one picked.
    const colorRoleIds = new Set(buttons.map((button) => button.roleId));
    let wrong = 0;
    for (const [userId, roleId] of lastPick) {
      const colors = memberRolesAmong(stack, GUILD, userId, colorRoleIds);
      if (colors.length !== 1 || colors[0] !== roleId) wrong += 1;
    }
    // After the check above: the member hammering is one of the phases' members.
    const hammer = await hammering(stack, messageId, buttons, userIds.at(-1) ?? '');

    const rows = [slow, fast].flatMap((result) => [
      latencyRow('baseline: sandbox REST GET member', result.rate, result.base, result.base),
      latencyRow('click -> first answer', result.rate, result.answer, result.base),
      latencyRow('click -> outcome edited in', result.rate, result.outcome, result.base),
      latencyRow('click -> role visible (gateway)', result.rate, result.visible, result.base),
    ]);
    printTable([['measure @clicks/s', 'n', 'p50', 'p99', 'max', 'p99 vs baseline'], ...rows]);
    for (const result of [slow, fast]) {
      console.log(
        `  @${result.rate} clicks/s: edit lag (role change landed -> outcome edited in) n ${result.editLag.n} p50 ${ms(result.editLag.p50)} p90 ${ms(result.editLag.p90)} max ${ms(result.editLag.max)}`,
      );
    }
    console.log(
      `  one member hammering: ${hammer.clicks} clicks at once, ${hammer.answered} answered (${hammer.busy} "still changing"), final answer p50 ${ms(hammer.finalMs.p50)} max ${ms(hammer.finalMs.max)}; ${hammer.colors} color(s) held at the end`,
    );
    for (const result of [slow, fast]) {
      const perSecond = result.throughput.perSecond;
      console.log(
        `  @${result.rate} clicks/s: ${result.roleChanges} role changes, ${perSecond.toFixed(1)} role changes/s vs ${GLOBAL_LIMIT}/s limit = ${(perSecond / GLOBAL_LIMIT).toFixed(2)}x over ${result.throughput.windows} limit windows; ${result.global429s} global 429s; clicks sent late by p99 ${ms(result.lateP99)}`,
      );
    }
    const failed = slow.failed + fast.failed + (hammer.clicks - hammer.answered);
    console.log(
      `  failed clicks: ${failed}; members with a wrong final color role: ${wrong}/${lastPick.size}`,
    );
    const share = fast.throughput.perSecond / GLOBAL_LIMIT;
    const goals = [
      [`answer p99 @10/s ${ms(slow.answer.p99)} <= ${ANSWER_GOAL_MS} ms`, slow.answer.p99 <= ANSWER_GOAL_MS],
      [`answer p99 @100/s ${ms(fast.answer.p99)} <= ${ANSWER_GOAL_MS} ms`, fast.answer.p99 <= ANSWER_GOAL_MS],
      [`role changes @100/s ${share.toFixed(2)}x >= ${THROUGHPUT_GOAL}x`, share >= THROUGHPUT_GOAL],
      [
        `edit lag p90 @10/s ${ms(slow.editLag.p90)}, @100/s ${ms(fast.editLag.p90)} < ${EDIT_LAG_GOAL_MS} ms`,
        slow.editLag.p90 < EDIT_LAG_GOAL_MS && fast.editLag.p90 < EDIT_LAG_GOAL_MS,
      ],
      [
        `one member's ${hammer.clicks} clicks: slowest final answer ${ms(hammer.finalMs.max)} <= ${HAMMER_GOAL_MS} ms`,
        hammer.finalMs.max <= HAMMER_GOAL_MS,
      ],
    ] as const;
    for (const [goal, met] of goals) console.log(`  goal ${met ? 'met' : 'MISSED'}: ${goal}`);

    reportHeadline(
      'click-latency',
      `answer p99 @10/s ${ms(slow.answer.p99)}, @100/s ${ms(fast.answer.p99)} (goal <= ${ANSWER_GOAL_MS} ms; sandbox RTT p99 ${ms(slow.base.p99)} / ${ms(fast.base.p99)}); role visible @100/s p50 ${ms(fast.visible.p50)} p99 ${ms(fast.visible.p99)}; ${fast.throughput.perSecond.toFixed(1)} role changes/s vs ${GLOBAL_LIMIT}/s limit = ${share.toFixed(2)}x (goal >= ${THROUGHPUT_GOAL}x); edit lag p90 @100/s ${ms(fast.editLag.p90)} (goal < ${EDIT_LAG_GOAL_MS} ms); hammering: slowest final answer ${ms(hammer.finalMs.max)} (goal <= ${HAMMER_GOAL_MS} ms); failed ${failed}, wrong ${wrong + (hammer.colors === 1 ? 0 : 1)}`,
    );
    // A goal missed fails the bench, as a failed click does.
    if (failed > 0 || wrong > 0 || hammer.colors !== 1 || goals.some(([, met]) => !met)) process.exitCode = 1;
  } finally {
    seen.stop();
    await stack.close();
  }
}

function percentileOf(samples: readonly number[], p: number): number {
  return percentile(
    [...samples].sort((a, b) => a - b),
    p,
  );
}

/**
 * One member clicking HAMMER_CLICKS colors at once: every click's final answer, in ms after the
 * click by the sandbox's clock (the first answer when it carried the answer, else the edit that
 * put it into the deferred one), and how many colors the member holds at the end.
 */
async function hammering(stack: Stack, messageId: string, buttons: readonly PanelButton[], userId: string) {
  const world = stack.sandbox.world;
  const clicks = await Promise.all(
    Array.from({ length: HAMMER_CLICKS }, async (_, i) => {
      const answer = await clickComponent(stack, {
        guildId: GUILD,
        channelId: CHANNEL,
        messageId,
        userId,
        customId: buttons[i % buttons.length]?.customId,
      });
      return { interaction_id: answer.interaction_id ?? '', responded: answer.responded === true };
    }),
  );
  const DEFERRED = 5;
  const finalAt = (id: string): number | undefined => {
    const record = world.interactions.get(id);
    if (!record || record.responded_ms === null) return undefined;
    if ((record.response as { type?: number } | null)?.type !== DEFERRED) return record.responded_ms;
    const edited = record.edits.find((edit) => edit.target === '@original');
    return edited && record.original?.content ? Date.parse(edited.at) : undefined;
  };
  const answered = clicks.filter((click) => click.responded);
  await waitFor(
    "every hammering click's final answer",
    async () => (answered.every((click) => finalAt(click.interaction_id) !== undefined) ? true : undefined),
    SETTLE_TIMEOUT_MS,
  ).catch(() => {});
  const finalMs = answered.flatMap((click) => {
    const at = finalAt(click.interaction_id);
    const created = world.interactions.get(click.interaction_id)?.created_ms;
    return at === undefined || created === undefined ? [] : [at - created];
  });
  const colorRoleIds = new Set(buttons.map((button) => button.roleId));
  const held = memberRolesAmong(stack, GUILD, userId, colorRoleIds);
  return {
    clicks: clicks.length,
    answered: finalMs.length,
    busy: answered.filter((click) =>
      world.interactions.get(click.interaction_id)?.original?.content?.startsWith('Still changing'),
    ).length,
    finalMs: summarize(finalMs),
    colors: held.length,
  };
}

await main();
