/**
 * A raid of joins: 500 members join Sandbox Station within 10 s while the sandbox enforces
 * Discord's global limit (50 requests a second on the bot token) and its per-route buckets (5
 * messages per 5 s in a channel among them). The admin's welcome is on, in the general channel,
 * with two auto-roles for people.
 *
 * The real path end to end: ada signs in through the sandbox's OAuth2 page and saves the welcome
 * settings through the API (PUT /welcome); the members join through the sandbox
 * (`PUT /_sandbox/guilds/:g/members/:u`, GUILD_MEMBER_ADD to the real worker).
 *
 * - every member greeted exactly once (named in exactly one message of the welcome channel);
 * - every member holding both auto-roles;
 * - 0 answers of 429;
 * - the time from the first join until the last member holds the auto-roles, against the floor
 *   Discord's limits set: the joins' own span, or the bot's requests of the run (role writes
 *   and greetings) at 50 a second, whichever is longer. Goal: at most 1.2x.
 */
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { crowdFixture, GLOBAL_LIMIT, observeMembers, openLoop, waitForBotPresence } from './discord-load.ts';
import { ms, reportHeadline, waitFor } from './lib.ts';
import { startStack } from './stack.ts';

const MEMBERS = 500;
const JOIN_SECONDS = 10;
const GOAL = 1.2;
const GUILD = SANDBOX_IDS.guilds.station;
const CHANNEL = SANDBOX_IDS.channels.general;
const SETTLE_TIMEOUT_MS = 5 * 60_000;
/** A change of a member's roles: one role added, or the member's roles set at once. */
const ROLE_WRITE = /^\/guilds\/\d+\/members\/\d+(\/roles\/\d+)?$/;

async function main(): Promise<void> {
  // Two roles below the bot's, and 500 people who are not members yet.
  const { fixture, roleIds } = crowdFixture({
    members: 0,
    userIdPrefix: '2400000000',
    username: 'raider',
    roleIdPrefix: '3400000000',
    roles: [{ name: 'Cadet' }, { name: 'Newcomer' }],
  });
  const userIds = Array.from({ length: MEMBERS }, (_, i) => `2400000000${String(i).padStart(8, '0')}`);
  for (const [i, id] of userIds.entries()) {
    fixture.users.push({ id, username: `raider${i}`, discriminator: '0', global_name: null, avatar: null });
  }
  console.log(
    `joins: ${MEMBERS} members join within ${JOIN_SECONDS} s; welcome on with ${roleIds.length} auto-roles; global limit ${GLOBAL_LIMIT}/s and per-route buckets enforced`,
  );
  const stack = await startStack({
    fixture,
    withWorker: true,
    limits: { globalPerSecond: GLOBAL_LIMIT, routes: true },
  });
  const seen = observeMembers(stack, SETTLE_TIMEOUT_MS);
  const holding = new Map<string, number>();
  const wanted = new Set(roleIds);
  stack.sandbox.world.events.on('dispatch', (event: { t: string; d: unknown }) => {
    if (event.t !== 'GUILD_MEMBER_UPDATE') return;
    const member = event.d as { user?: { id?: string }; roles?: string[] };
    const id = member.user?.id ?? '';
    const held = member.roles?.filter((role) => wanted.has(role)).length ?? 0;
    if (held === wanted.size && !holding.has(id)) holding.set(id, performance.now());
  });
  try {
    const ada = await stack.signIn(SANDBOX_IDS.users.ada);
    await waitForBotPresence(stack, ada, GUILD);
    await stack.api('PUT', `/api/guilds/${GUILD}/welcome`, ada, {
      enabled: true,
      channel_id: CHANNEL,
      send_when: 'join',
      auto_roles: roleIds,
    });
    seen.requestsSinceMark();

    const started = performance.now();
    await openLoop(MEMBERS / JOIN_SECONDS, MEMBERS, async (i) => {
      const response = await fetch(`${stack.sandbox.url}/_sandbox/guilds/${GUILD}/members/${userIds[i]}`, {
        method: 'PUT',
      });
      if (!response.ok) throw new Error(`join ${i} -> ${response.status}: ${await response.text()}`);
    });
    const joinSpanMs = performance.now() - started;

    await waitFor(
      'every member to hold the auto-roles',
      async () => (holding.size >= MEMBERS ? true : undefined),
      SETTLE_TIMEOUT_MS,
    ).catch(() => undefined);
    const doneMs = Math.max(...holding.values()) - started;
    const greetedCount = () => {
      const messages = stack.sandbox.world.messages.get(CHANNEL) ?? [];
      const counts = new Map<string, number>();
      for (const message of messages) {
        for (const id of message.content.match(/<@(\d+)>/g) ?? []) {
          const user = id.slice(2, -1);
          counts.set(user, (counts.get(user) ?? 0) + 1);
        }
      }
      return counts;
    };
    const greeted = await waitFor(
      'every member to be greeted',
      async () => {
        const counts = greetedCount();
        return userIds.every((id) => counts.has(id)) ? counts : undefined;
      },
      SETTLE_TIMEOUT_MS,
    ).catch(() => greetedCount());
    const calls = seen.requestsSinceMark();
    seen.stop();

    const tooMany = calls.filter((call) => call.status === 429).length;
    const botCalls = calls.filter((call) => !call.path.startsWith('/interactions/')).length;
    const roleWrites = calls.filter(
      (call) =>
        call.method !== 'GET' && ROLE_WRITE.test(call.path) && call.status >= 200 && call.status < 300,
    ).length;
    const posts = calls.filter(
      (call) => call.method === 'POST' && call.path === `/channels/${CHANNEL}/messages`,
    ).length;
    const floorMs = Math.max(joinSpanMs, ((roleWrites + posts) * 1000) / GLOBAL_LIMIT);
    const greetedOnce = userIds.filter((id) => greeted.get(id) === 1).length;
    const greetedTwice = userIds.filter((id) => (greeted.get(id) ?? 0) > 1).length;
    const missingRoles = MEMBERS - holding.size;
    const share = doneMs / floorMs;
    console.log(
      `  joins took ${ms(joinSpanMs)}; ${botCalls} bot REST calls: ${roleWrites} role writes, ${posts} welcome messages, ${tooMany} x 429`,
    );
    console.log(
      `  greeted once ${greetedOnce}/${MEMBERS}, more than once ${greetedTwice}; holding the auto-roles ${holding.size}/${MEMBERS}`,
    );
    console.log(
      `  last member holds the auto-roles after ${ms(doneMs)}; floor ${ms(floorMs)} (joins' span, or ${roleWrites + posts} requests at ${GLOBAL_LIMIT}/s) = ${share.toFixed(2)}x`,
    );
    const met = share <= GOAL && tooMany === 0 && greetedOnce === MEMBERS && missingRoles === 0;
    console.log(
      `  goal ${met ? 'met' : 'MISSED'}: <= ${GOAL}x, 0 x 429, everyone greeted once and holding the roles`,
    );
    reportHeadline(
      'joins',
      `${MEMBERS} joins in ${ms(joinSpanMs)}: auto-roles on all after ${ms(doneMs)} = ${share.toFixed(2)}x the floor ${ms(floorMs)} (goal <= ${GOAL}x); greeted once ${greetedOnce}/${MEMBERS} in ${posts} messages; ${tooMany} x 429`,
    );
    if (!met) process.exitCode = 1;
  } finally {
    await stack.close();
  }
}

await main();
