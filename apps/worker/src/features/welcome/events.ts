import {
  WELCOME_RAID_BATCH_S,
  WELCOME_RAID_JOINS,
  WELCOME_RAID_WINDOW_S,
  welcomeGoodbyeKey,
  welcomeJoinCountKey,
  welcomeRaidKey,
} from '@spacecadet/contract';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import {
  completeAwaitingGreeting,
  dropAwaitingGreetings,
  greetingAwaits,
  guildsOwingGreetings,
  recordGreeting,
} from '@spacecadet/db/queries/welcome-greetings';
import { personalityOptions } from '@spacecadet/db/schema';
import { addGuildJob } from '@spacecadet/queue/guild-jobs';
import type { GuildMember, PartialGuildMember } from 'discord.js';
import { and, eq, inArray } from 'drizzle-orm';
import type { WorkerDeps } from '../../deps.ts';

/**
 * Greetings and goodbyes are owed only for live gateway events: a join older than this when
 * heard (a RESUME replaying what happened while the worker was away, an outage's catch-up) is
 * not greeted, and a greeting still owed this long after it was heard is dropped (greet.ts).
 */
export const WELCOME_FRESH_MS = 10 * 60_000;

/** Discord's member flag COMPLETED_ONBOARDING (1 << 1). */
export const COMPLETED_ONBOARDING = 1 << 1;

/**
 * Counts a join toward the raid check and tells whether the guild is in a raid: more than
 * WELCOME_RAID_JOINS joins within WELCOME_RAID_WINDOW_S seconds. The mark lasts a window past
 * the burst's last join, so the whole tail of the burst is merged too.
 */
async function inRaid(deps: WorkerDeps, guildId: string): Promise<boolean> {
  const countKey = welcomeJoinCountKey(guildId);
  const raidKey = welcomeRaidKey(guildId);
  const result = await deps.redis
    .multi()
    .incr(countKey)
    .expire(countKey, WELCOME_RAID_WINDOW_S, 'NX')
    .exists(raidKey)
    .exec();
  const count = Number(result?.[0]?.[1] ?? 0);
  const raid = count > WELCOME_RAID_JOINS || Number(result?.[2]?.[1] ?? 0) > 0;
  if (raid) await deps.redis.set(raidKey, '1', 'EX', WELCOME_RAID_WINDOW_S);
  return raid;
}

/** Queues the job that posts what is owed; a run already going gets a follow-up, so nothing waits unseen. */
export function queueWelcomeJob(
  deps: WorkerDeps,
  name: 'welcome.greet' | 'welcome.raid-batch' | 'welcome.goodbye',
  guildId: string,
  delayMs?: number,
) {
  return addGuildJob(deps.queue, name, guildId, null, {
    afterChange: true,
    ...(delayMs === undefined ? {} : { delayMs }),
  });
}

interface Greeted {
  guildId: string;
  userId: string;
  joinedAt: Date;
  username: string;
  answers: string[];
  memberCount: number;
}

/** Records a greeting owed and queues its post (merged into a raid's batches during a burst). */
async function owe(deps: WorkerDeps, greeted: Greeted): Promise<void> {
  const raid = await inRaid(deps, greeted.guildId);
  const recorded = await recordGreeting(deps.db, { ...greeted, kind: 'welcome', raid });
  // Recorded before (a replayed event): its job was queued then.
  if (recorded) await queueOwed(deps, greeted.guildId, raid);
}

function queueOwed(deps: WorkerDeps, guildId: string, raid: boolean) {
  return raid
    ? queueWelcomeJob(deps, 'welcome.raid-batch', guildId, WELCOME_RAID_BATCH_S * 1000)
    : queueWelcomeJob(deps, 'welcome.greet', guildId);
}

/**
 * Whether a member is through Membership Screening and Onboarding, from what the gateway gives:
 * `pending` false (Discord holds a member of a server with Screening or Onboarding pending
 * until they finish), and, when the server has Onboarding (its GUILD_ONBOARDING feature), the
 * COMPLETED_ONBOARDING member flag. A server with neither has members done at the join.
 */
export function finishedOnboarding(
  guildFeatures: readonly string[],
  member: { pending?: boolean | null; flags?: number | null },
): boolean {
  if (member.pending === true) return false;
  return !guildFeatures.includes('GUILD_ONBOARDING') || ((member.flags ?? 0) & COMPLETED_ONBOARDING) !== 0;
}

/**
 * GUILD_MEMBER_ADD. People only: bots are not greeted (as MEE6's and Carl-bot's welcomes do by
 * default), they get their own auto-roles (features/auto-roles). With `send_when: 'join'` the
 * greeting is owed now; with `'onboarding_complete'` it is recorded waiting, and owed once
 * GUILD_MEMBER_UPDATE shows the member done (at once when nothing holds them).
 */
export async function onMemberJoin(deps: WorkerDeps, member: GuildMember): Promise<void> {
  if (member.user.bot) return;
  const joinedAt = member.joinedAt ?? new Date();
  if (Date.now() - joinedAt.getTime() > WELCOME_FRESH_MS) return;
  const settings = await getWelcomeSettings(deps.db, member.guild.id);
  if (!settings.enabled) return;
  const greeted = {
    guildId: member.guild.id,
    userId: member.id,
    joinedAt,
    username: member.displayName,
    answers: [],
    memberCount: member.guild.memberCount,
  };
  const done = finishedOnboarding(member.guild.features, {
    pending: member.pending,
    flags: member.flags.bitfield,
  });
  if (settings.send_when === 'join' || done) {
    await owe(deps, greeted);
    return;
  }
  await recordGreeting(deps.db, { ...greeted, kind: 'welcome', raid: false, awaiting: true });
}

/**
 * GUILD_MEMBER_UPDATE (the worker caches no members, so discord.js hands a partial "before"; the
 * member as Discord sent it is all this reads): a member whose greeting waits (recorded at their
 * join, above) and who is now through Screening and Onboarding is greeted once, with their
 * Onboarding answers. Later updates find nothing waiting; a member who never completes is never
 * greeted.
 */
export async function onMemberUpdate(deps: WorkerDeps, member: GuildMember): Promise<void> {
  if (member.user.bot || !member.joinedAt) return;
  const done = finishedOnboarding(member.guild.features, {
    pending: member.pending,
    flags: member.flags.bitfield,
  });
  if (!done) return;
  const key = { guildId: member.guild.id, userId: member.id, joinedAt: member.joinedAt };
  if (!(await greetingAwaits(deps.db, key))) return;
  const raid = await inRaid(deps, member.guild.id);
  const owed = await completeAwaitingGreeting(deps.db, key, {
    username: member.displayName,
    answers: await onboardingAnswers(deps, member.guild.id, [...member.roles.cache.keys()]),
    memberCount: member.guild.memberCount,
    raid,
  });
  if (owed) await queueOwed(deps, member.guild.id, raid);
}

/** The names of the personality answers the member holds (picked in Onboarding), in question order. */
async function onboardingAnswers(deps: WorkerDeps, guildId: string, roleIds: readonly string[]) {
  if (roleIds.length === 0) return [];
  const rows = await deps.db
    .select({ label: personalityOptions.label })
    .from(personalityOptions)
    .where(and(eq(personalityOptions.guildId, guildId), inArray(personalityOptions.roleId, [...roleIds])))
    .orderBy(personalityOptions.questionId, personalityOptions.position);
  return rows.map((row) => row.label);
}

/**
 * GUILD_MEMBER_REMOVE: a goodbye when enabled, for people only. Only a live event says goodbye
 * (a leave is not replayed after an outage: Discord's RESUME window is short, and a goodbye
 * heard late is dropped by its job). The bot itself never bans, so no leave is its own ban.
 */
export async function onMemberLeave(
  deps: WorkerDeps,
  member: GuildMember | PartialGuildMember,
): Promise<void> {
  if (member.user?.bot) return;
  await dropAwaitingGreetings(deps.db, member.guild.id, member.id);
  const settings = await getWelcomeSettings(deps.db, member.guild.id);
  if (!settings.goodbye_enabled || !settings.goodbye_channel_id) return;
  // The leave carries no time of its own: the same leave heard again within the window is a
  // replay. (A member who leaves twice within it is said goodbye once.)
  const first = await deps.redis.set(
    welcomeGoodbyeKey(member.guild.id, member.id),
    '1',
    'EX',
    WELCOME_FRESH_MS / 1000,
    'NX',
  );
  if (first === null) return;
  const recorded = await recordGreeting(deps.db, {
    guildId: member.guild.id,
    userId: member.id,
    kind: 'goodbye',
    // The join this leave ends when known (the worker caches no members), else the leave's time.
    joinedAt: member.joinedAt ?? new Date(),
    username: member.user ? (member.nickname ?? member.user.globalName ?? member.user.username) : member.id,
    answers: [],
    memberCount: member.guild.memberCount,
    raid: false,
  });
  if (recorded) await queueWelcomeJob(deps, 'welcome.goodbye', member.guild.id);
}

/**
 * At start: queues the jobs of greetings recorded but not posted (the job that was to post them
 * was lost with Redis' data, or never queued because the process died between the two writes).
 * The jobs drop those heard too long ago (greet.ts); a raid's are all posted.
 */
export async function queueStillOwed(deps: WorkerDeps): Promise<void> {
  for (const owed of await guildsOwingGreetings(deps.db)) {
    if (owed.kind === 'goodbye') await queueWelcomeJob(deps, 'welcome.goodbye', owed.guildId);
    else await queueOwed(deps, owed.guildId, owed.raid);
  }
}
