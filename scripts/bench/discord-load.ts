/**
 * What the benchmarks that load the bot like members do share: an open loop that sends on a
 * schedule, Discord's global limit switched on the sandbox, throughput over its windows, waiting
 * for the worker to have joined a guild, members' clicks and what they see of them.
 */

import { GLOBAL_SHARE } from '@spacecadet/discord-proxy';
import {
  defaultFixture,
  makeRole,
  type RestRequestRecord,
  SANDBOX_BOT_TOKEN,
  SANDBOX_IDS,
  type SandboxFixture,
} from '@spacecadet/discord-sandbox';
import { summarize, waitFor } from './lib.ts';
import type { Stack } from './stack.ts';

/** Discord's global limit on the bot token, requests a second, as the benches switch it on. */
export const GLOBAL_LIMIT = 50;
/**
 * The share of the global limit the role changes must reach: all but 5% of what the shared
 * Discord proxy may send (GLOBAL_SHARE of the limit; its pacing by arrival bounds costs one round
 * trip a second, so the 5% is the round trip's share).
 */
export const THROUGHPUT_GOAL = GLOBAL_SHARE * 0.95;

const sleep = (msToWait: number) => new Promise((resolve) => setTimeout(resolve, msToWait));

/**
 * Open loop: starts `task(i)` when it is due (`i / rate` seconds after the start) whatever the
 * earlier ones are doing, and hands it that due time, from which its latencies count.
 */
export async function openLoop<T>(
  rate: number,
  count: number,
  task: (index: number, due: number) => Promise<T>,
): Promise<{ results: T[]; lateP99: number }> {
  const start = performance.now() + 5;
  const pending: Promise<T>[] = [];
  const late: number[] = [];
  for (let i = 0; i < count; i++) {
    const due = start + (i * 1000) / rate;
    const wait = due - performance.now();
    if (wait > 0) await sleep(wait);
    late.push(Math.max(0, performance.now() - due));
    pending.push(task(i, due));
  }
  return { results: await Promise.all(pending), lateP99: summarize(late).p99 };
}

/**
 * Role changes a second over the windows of the sandbox's global limit (a window opens with the
 * first call after the previous one closed, and lasts 1 s): the calls in every window but the
 * last, over the time from the first window's opening to the last's. A last window only partly
 * used would otherwise count as a whole second, or be left out of the time.
 */
export function perSecondOverWindows(times: readonly number[]): { perSecond: number; windows: number } {
  const sorted = [...times].sort((a, b) => a - b);
  const openings: number[] = [];
  const counts: number[] = [];
  for (const at of sorted) {
    const opened = openings.at(-1);
    if (opened === undefined || at >= opened + 1000) {
      openings.push(at);
      counts.push(0);
    }
    counts[counts.length - 1] = (counts.at(-1) ?? 0) + 1;
  }
  if (openings.length < 2) return { perSecond: Number.NaN, windows: openings.length };
  const calls = counts.slice(0, -1).reduce((sum, count) => sum + count, 0);
  const spanMs = (openings.at(-1) ?? 0) - (openings[0] ?? 0);
  return { perSecond: (calls * 1000) / spanMs, windows: openings.length };
}

export async function setGlobalLimit(stack: Stack, perSecond: number | null): Promise<void> {
  const response = await fetch(`${stack.sandbox.url}/_sandbox/global-rate-limit`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ per_second: perSecond }),
  });
  if (!response.ok) throw new Error(`global-rate-limit -> ${response.status}: ${await response.text()}`);
}

export async function waitForBotPresence(stack: Stack, auth: string, guildId: string): Promise<void> {
  await waitFor(`the worker to record the bot in guild ${guildId}`, async () => {
    const presence = await stack.api<{ inGuild: boolean }>('GET', `/api/bot/in-guild/${guildId}`, auth);
    return presence.inGuild ? true : undefined;
  });
}

/**
 * The baseline task: the sandbox's REST round trip for the bot reading member `i`, in ms from
 * when it was due (as the open loop hands it).
 */
export function memberRoundTrip(stack: Stack, guildId: string, userIds: readonly string[]) {
  return async (i: number, due: number): Promise<number> => {
    const response = await fetch(`${stack.sandbox.apiBase}/v10/guilds/${guildId}/members/${userIds[i]}`, {
      headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` },
    });
    await response.arrayBuffer();
    return performance.now() - due;
  };
}

/**
 * The world as the members see it, from the sandbox's live state in this process: each
 * member's GUILD_MEMBER_UPDATE on the gateway, each interaction's answer (`shown`: whether its
 * content is the outcome), and the REST calls. What is not seen within `settleTimeoutMs` is NaN.
 */
export function observeMembers(
  stack: Stack,
  settleTimeoutMs: number,
  shown: (content: string) => boolean = (content) => content !== '',
) {
  const world = stack.sandbox.world;
  const roleWaiters = new Map<string, { roleId: string; seen: (at: number) => void }>();
  const outcomeWaiters = new Map<string, (at: number) => void>();
  world.events.on('dispatch', (event: { t: string; d: unknown }) => {
    if (event.t !== 'GUILD_MEMBER_UPDATE') return;
    const member = event.d as { user?: { id?: string }; roles?: string[] };
    const waiter = roleWaiters.get(member.user?.id ?? '');
    if (waiter && member.roles?.includes(waiter.roleId)) waiter.seen(performance.now());
  });
  const outcomeShown = (id: string) => shown(world.interactions.get(id)?.original?.content ?? '');
  world.events.on('interaction-responded', (id: string) => {
    if (outcomeShown(id)) outcomeWaiters.get(id)?.(performance.now());
  });

  /** Resolves with when `settled` was called, or NaN after settleTimeoutMs. */
  const deadline = (register: (settle: (at: number) => void) => () => void): Promise<number> =>
    new Promise((resolve) => {
      let unregister = () => {};
      const timer = setTimeout(() => settle(Number.NaN), settleTimeoutMs);
      function settle(at: number) {
        clearTimeout(timer);
        unregister();
        resolve(at);
      }
      unregister = register(settle);
    });

  // The sandbox keeps the last 2000 calls; collect them as they come, so a phase loses none.
  const requests: RestRequestRecord[] = [];
  let lastSeq = world.requests.at(-1)?.seq ?? 0;
  const collect = () => {
    for (const request of world.requests) if (request.seq > lastSeq) requests.push(request);
    lastSeq = world.requests.at(-1)?.seq ?? lastSeq;
  };
  const collector = setInterval(collect, 200);

  return {
    /** When `userId` is seen holding `roleId`. */
    roleVisible: (userId: string, roleId: string) =>
      deadline((settle) => {
        roleWaiters.set(userId, { roleId, seen: settle });
        return () => roleWaiters.delete(userId);
      }),
    /** When interaction `id` shows its outcome (now, if it already does). */
    outcomeShown: (id: string) =>
      deadline((settle) => {
        if (outcomeShown(id)) queueMicrotask(() => settle(performance.now()));
        outcomeWaiters.set(id, settle);
        return () => outcomeWaiters.delete(id);
      }),
    content: (id: string) => world.interactions.get(id)?.original?.content ?? '',
    /** Every REST call the sandbox answered since the last mark, and a new mark. */
    requestsSinceMark: () => {
      collect();
      return requests.splice(0);
    },
    stop: () => clearInterval(collector),
  };
}

/** A member's click on a component of a posted message, as Discord sends it to the bot. */
export async function clickComponent(
  stack: Stack,
  click: {
    guildId: string;
    channelId: string;
    messageId: string;
    userId: string;
    customId: string | undefined;
  },
): Promise<{ ok: boolean; interaction_id?: string; responded?: boolean }> {
  // A click the sandbox never got (a connection refused or reset on a loaded machine) is a
  // failed click, counted and reported, not the end of the run.
  const response = await fetch(`${stack.sandbox.url}/_sandbox/interactions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({
      guild_id: click.guildId,
      channel_id: click.channelId,
      message_id: click.messageId,
      user_id: click.userId,
      custom_id: click.customId,
    }),
  }).catch(() => null);
  if (!response) return { ok: false };
  const answer = (await response.json()) as { interaction_id?: string; responded?: boolean };
  return { ok: response.ok, ...answer };
}

export interface PanelButton {
  customId: string;
  roleId: string;
}

/** The posted panel's color buttons, each with the role its color maps to in the API's palette. */
export async function panelButtons(
  stack: Stack,
  auth: string,
  guildId: string,
  channelId: string,
): Promise<{ messageId: string; buttons: PanelButton[] }> {
  const screen = await stack.api<{
    message_id: string | null;
    mode: string;
    groups: Array<{ colors: Array<{ color_name: string; role_id: string | null }> }>;
  }>('GET', `/api/guilds/${guildId}/color-roles`, auth);
  if (!screen.message_id) throw new Error('post-panel finished without a message id');
  const roleByName = new Map(
    screen.groups.flatMap((group) =>
      group.colors.map((color) => [color.color_name.trim().toLowerCase(), color.role_id]),
    ),
  );
  const response = await fetch(
    `${stack.sandbox.apiBase}/v10/channels/${channelId}/messages/${screen.message_id}`,
    { headers: { authorization: `Bot ${SANDBOX_BOT_TOKEN}` } },
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
  if (buttons.length < 2)
    throw new Error(`panel ${screen.message_id} has too few color:pick buttons (mode ${screen.mode})`);
  return { messageId: screen.message_id, buttons };
}

/** The member's roles among `roleIds`, in the sandbox now. */
export function memberRolesAmong(
  stack: Stack,
  guildId: string,
  userId: string,
  roleIds: ReadonlySet<string>,
): string[] {
  return (
    stack.sandbox
      .state()
      .guilds.find((guild) => guild.id === guildId)
      ?.members.find((member) => member.user_id === userId)
      ?.roles.filter((id) => roleIds.has(id)) ?? []
  );
}

/** One member click and its times from when it was due: answered, outcome shown, role visible. */
export interface TimedClick {
  interactionId: string;
  answerMs: number;
  outcomeMs: number;
  visibleMs: number;
  /** The click was answered, its outcome shown and the role seen, each in time. */
  ok: boolean;
  /** The outcome the member was shown. */
  content: string;
}

/**
 * A member's click on the button that gives `roleId`, timed from `due` (as the open loop hands
 * it): until the sandbox answered it, until its outcome was shown, until the role was visible.
 */
export async function timedClick(
  stack: Stack,
  seen: ReturnType<typeof observeMembers>,
  click: { guildId: string; channelId: string; messageId: string; userId: string; customId: string },
  roleId: string,
  due: number,
): Promise<TimedClick> {
  const visible = seen.roleVisible(click.userId, roleId);
  const answer = await clickComponent(stack, click);
  const answerMs = performance.now() - due;
  const interactionId = answer.interaction_id ?? '';
  const [outcomeAt, visibleAt] = await Promise.all([seen.outcomeShown(interactionId), visible]);
  return {
    interactionId,
    answerMs,
    outcomeMs: outcomeAt - due,
    visibleMs: visibleAt - due,
    ok: answer.ok && answer.responded === true && Number.isFinite(outcomeAt) && Number.isFinite(visibleAt),
    content: seen.content(interactionId),
  };
}

/**
 * The default world plus a crowd in Sandbox Station: `members` members without roles (ids from
 * `userIdPrefix`, names `username` and a number), and `roles.length` roles placed just below the
 * bot's role (the roles above it move up), so the bot may give them; `roles[i]` names role i and
 * may give it a color.
 */
export function crowdFixture(crowd: {
  members: number;
  userIdPrefix: string;
  username: string;
  roleIdPrefix: string;
  roles: ReadonlyArray<{ name: string; color?: number }>;
}): { fixture: SandboxFixture; userIds: string[]; roleIds: string[] } {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((guild) => guild.id === SANDBOX_IDS.guilds.station);
  const botRole = station?.roles.find((role) => role.id === SANDBOX_IDS.roles.stationBot);
  if (!station || !botRole) throw new Error('fixture changed: no Sandbox Station or bot role');
  const below = botRole.position;
  for (const role of station.roles) if (role.position >= below) role.position += crowd.roles.length;
  const roleIds = crowd.roles.map((_, i) => `${crowd.roleIdPrefix}${String(i).padStart(8, '0')}`);
  for (const [i, id] of roleIds.entries()) {
    const { name, color } = crowd.roles[i] ?? { name: id };
    station.roles.push(makeRole(id, name, below + i, '0', color === undefined ? {} : { color }));
  }
  const userIds = Array.from(
    { length: crowd.members },
    (_, i) => `${crowd.userIdPrefix}${String(i).padStart(8, '0')}`,
  );
  for (const [i, id] of userIds.entries()) {
    fixture.users.push({
      id,
      username: `${crowd.username}${i}`,
      discriminator: '0',
      global_name: null,
      avatar: null,
    });
    station.members.push({ user_id: id, roles: [], nick: null, joined_at: '2024-01-01T00:00:00.000Z' });
  }
  return { fixture, userIds, roleIds };
}
