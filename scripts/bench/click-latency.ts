/**
 * Issue 5: member click on the color panel -> role assigned, under a steady load of clicks from
 * many members, beside the sandbox's own REST round trip measured in the same run.
 *
 * The real path end to end: ada signs in through the sandbox's OAuth2 page, the API enqueues
 * generate + post-panel, the real worker (discord.js + BullMQ) runs them against the sandbox;
 * extra members join through the control API and click the posted panel's buttons via
 * `POST /_sandbox/interactions`. Bounded: a fixed number of clicks at a fixed concurrency.
 */
import { defaultFixture, SANDBOX_IDS, type SandboxFixture } from '@spacecadet/discord-sandbox';
import { loadBenchEnv } from '../env.ts';
import { elapsedMs, ms, printTable, ratio, reportHeadline, runBounded, summarize, waitFor } from './lib.ts';
import { runJobThroughApi, type Stack, startStack } from './stack.ts';

const { members: MEMBERS, clicks: CLICKS, concurrency: CONCURRENCY } = loadBenchEnv().click;
const WARMUP = 40;
const SINGLE_CLICKS = 60;
const ROLE_VISIBLE_TIMEOUT_MS = 5_000;

const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.roles;
const BOT_AUTH = { authorization: 'Bot sandbox-bot-token' };

/** The default world plus MEMBERS users who are not in any guild yet (they join through the control API). */
function fixtureWithCrowd(): { fixture: SandboxFixture; userIds: string[] } {
  const fixture = defaultFixture();
  const userIds = Array.from({ length: MEMBERS }, (_, i) => `2100000000${String(i).padStart(8, '0')}`);
  for (const [i, id] of userIds.entries()) {
    fixture.users.push({
      id,
      username: `cadet${i}`,
      discriminator: '0',
      global_name: `Cadet ${i}`,
      avatar: null,
    });
  }
  return { fixture, userIds };
}

interface PanelButton {
  customId: string;
  roleId: string;
}

/** The posted panel's color buttons, each with the role its color maps to in the API's palette. */
async function panelButtons(
  stack: Stack,
  auth: string,
): Promise<{ messageId: string; buttons: PanelButton[] }> {
  const screen = await stack.api<{
    message_id: string | null;
    mode: string;
    groups: Array<{ colors: Array<{ color_name: string; role_id: string | null }> }>;
  }>('GET', `/api/guilds/${GUILD}/color-roles`, auth);
  if (!screen.message_id) throw new Error('post-panel finished without a message id');
  const roleByName = new Map(
    screen.groups.flatMap((group) =>
      group.colors.map((color) => [color.color_name.trim().toLowerCase(), color.role_id]),
    ),
  );
  const response = await fetch(
    `${stack.sandbox.apiBase}/v10/channels/${CHANNEL}/messages/${screen.message_id}`,
    {
      headers: BOT_AUTH,
    },
  );
  const message = (await response.json()) as {
    components?: Array<{ components?: Array<{ custom_id?: string }> }>;
  };
  const buttons: PanelButton[] = [];
  for (const row of message.components ?? []) {
    for (const component of row.components ?? []) {
      const name = component.custom_id?.startsWith('color:pick:') ? component.custom_id.slice(11) : null;
      const roleId = name ? roleByName.get(name.trim().toLowerCase()) : null;
      if (component.custom_id && roleId) buttons.push({ customId: component.custom_id, roleId });
    }
  }
  if (buttons.length === 0)
    throw new Error(`panel ${screen.message_id} has no color:pick buttons (mode ${screen.mode})`);
  return { messageId: screen.message_id, buttons };
}

async function memberRoles(stack: Stack, userId: string): Promise<string[]> {
  const response = await fetch(`${stack.sandbox.apiBase}/v10/guilds/${GUILD}/members/${userId}`, {
    headers: BOT_AUTH,
  });
  const member = (await response.json()) as { roles?: string[] };
  return member.roles ?? [];
}

interface ClickSample {
  answerMs: number;
  visibleMs: number;
  ok: boolean;
}

async function main(): Promise<void> {
  const { fixture, userIds } = fixtureWithCrowd();
  console.log(
    `click-latency: ${MEMBERS} members; ${WARMUP} warm-up clicks, ${SINGLE_CLICKS} one at a time, ${CLICKS} at concurrency ${CONCURRENCY}`,
  );
  const stack = await startStack({ fixture, withWorker: true });
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    // The worker records bot presence from READY; the API refuses jobs (409) until it has.
    await waitForBotPresence(stack, ada);
    await stack.api('PUT', `/api/guilds/${GUILD}/color-roles/channel`, ada, { channel_id: CHANNEL });
    let started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/color-roles/generate-roles`);
    const generateMs = elapsedMs(started);
    started = performance.now();
    await runJobThroughApi(stack, ada, `/api/guilds/${GUILD}/color-roles/post-panel`);
    const postMs = elapsedMs(started);
    const { messageId, buttons } = await panelButtons(stack, ada);
    console.log(
      `  setup: generate ${ms(generateMs)}, post panel ${ms(postMs)}, ${buttons.length} color buttons`,
    );

    await runBounded(userIds.length, 8, async (i) => {
      const response = await fetch(`${stack.sandbox.url}/_sandbox/guilds/${GUILD}/members/${userIds[i]}`, {
        method: 'PUT',
      });
      if (!response.ok) throw new Error(`join ${userIds[i]} -> ${response.status}`);
      await response.text();
    });

    const lastPick = new Map<string, string>();
    let nextClick = 0;
    const click = async (): Promise<ClickSample> => {
      // Members take turns in order, so with more members than lanes none has two clicks in flight.
      const index = nextClick++;
      const userId = userIds[index % userIds.length] ?? '';
      const button = buttons[
        (index * 7 + Math.floor(index / userIds.length)) % buttons.length
      ] as PanelButton;
      const start = performance.now();
      const response = await fetch(`${stack.sandbox.url}/_sandbox/interactions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          guild_id: GUILD,
          channel_id: CHANNEL,
          message_id: messageId,
          user_id: userId,
          custom_id: button.customId,
        }),
      });
      const answer = (await response.json()) as { responded?: boolean };
      const answerMs = elapsedMs(start);
      let visibleMs = Number.NaN;
      const deadline = Date.now() + ROLE_VISIBLE_TIMEOUT_MS;
      while (Date.now() < deadline) {
        if ((await memberRoles(stack, userId)).includes(button.roleId)) {
          visibleMs = elapsedMs(start);
          break;
        }
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      lastPick.set(userId, button.roleId);
      return {
        answerMs,
        visibleMs,
        ok: response.ok && answer.responded === true && Number.isFinite(visibleMs),
      };
    };
    const roundTrip = async (i: number): Promise<number> => {
      const start = performance.now();
      await memberRoles(stack, userIds[i % userIds.length] ?? '');
      return elapsedMs(start);
    };

    /** Clicks at one concurrency, with the baseline at the same concurrency half before and half after. */
    const phase = async (concurrency: number, clicks: number) => {
      const baseline = await runBounded(Math.ceil(clicks / 2), concurrency, roundTrip);
      const samples = await runBounded(clicks, concurrency, click);
      baseline.push(...(await runBounded(Math.floor(clicks / 2), concurrency, roundTrip)));
      const base = summarize(baseline);
      const answer = summarize(samples.map((sample) => sample.answerMs));
      const visible = summarize(samples.filter((sample) => sample.ok).map((sample) => sample.visibleMs));
      const failed = samples.filter((sample) => !sample.ok).length;
      const row = (label: string, summary: typeof base) => [
        `${label} @${concurrency}`,
        String(summary.n),
        ms(summary.p50),
        ms(summary.p99),
        ms(summary.max),
        ratio(summary.p50, base.p50),
        ratio(summary.p99, base.p99),
      ];
      const rows = [
        row('baseline: sandbox REST GET member', base),
        row('click -> interaction answer', answer),
        row('click -> role visible (REST)', visible),
      ];
      return { rows, base, visible, failed };
    };

    await runBounded(WARMUP, CONCURRENCY, click);
    // One member at a time shows the cost of a click; the loaded phase adds queueing on top.
    const single = await phase(1, SINGLE_CLICKS);
    const loaded = await phase(CONCURRENCY, CLICKS);

    // Each member must end with exactly one color role: the last one picked.
    const colorRoleIds = new Set(buttons.map((button) => button.roleId));
    const guild = stack.sandbox.state().guilds.find((candidate) => candidate.id === GUILD);
    let wrong = 0;
    for (const [userId, roleId] of lastPick) {
      const held = guild?.members.find((member) => member.user_id === userId)?.roles ?? [];
      const colors = held.filter((id) => colorRoleIds.has(id));
      if (colors.length !== 1 || colors[0] !== roleId) wrong += 1;
    }

    const failed = single.failed + loaded.failed;
    printTable([
      ['measure @concurrency', 'n', 'p50', 'p99', 'max', 'p50 ratio', 'p99 ratio'],
      ...single.rows,
      ...loaded.rows,
    ]);
    console.log(
      `  failed clicks: ${failed}; members with a wrong final color role: ${wrong}/${lastPick.size}`,
    );
    const { visible, base } = loaded;
    reportHeadline(
      'click-latency',
      `@${CONCURRENCY}: click->role p50 ${ms(visible.p50)} (${ratio(visible.p50, base.p50)}), p99 ${ms(visible.p99)} (${ratio(visible.p99, base.p99)}) vs sandbox RTT p50 ${ms(base.p50)}; @1: p50 ${ms(single.visible.p50)} (${ratio(single.visible.p50, single.base.p50)}); failed ${failed}, wrong ${wrong}`,
    );
    if (failed > 0 || wrong > 0) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

async function waitForBotPresence(stack: Stack, auth: string): Promise<void> {
  await waitFor('the worker to record the bot in Sandbox Station', async () => {
    const presence = await stack.api<{ inGuild: boolean }>('GET', `/api/bot/in-guild/${GUILD}`, auth);
    return presence.inGuild ? true : undefined;
  });
}

await main();
