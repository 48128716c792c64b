/**
 * Every Redis key layout of ours, defined once so the processes that share a key (the API and
 * the worker, or several worker processes) cannot drift apart. Builders return the key without
 * the `${REDIS_PREFIX}:` every key starts with: both apps' clients add it themselves (ioredis
 * `keyPrefix`). BullMQ keeps its own connection (it refuses a `keyPrefix`) and namespaces its
 * keys with `bullPrefix`. No zod here.
 *
 * Why one file: the point is that every key of every process is in one place, so two features
 * cannot pick the same layout and a data deletion (a server's, a member's) can see them all.
 */

/** BullMQ's `prefix` option: the queue's keys live under `${REDIS_PREFIX}:bull:`. */
export function bullPrefix(redisPrefix: string): string {
  return `${redisPrefix}:bull`;
}

/** What ioredis' `keyPrefix` option is set to, so every key below lands under the prefix. */
export function redisKeyPrefix(redisPrefix: string): string {
  return `${redisPrefix}:`;
}

/**
 * The guilds a user may manage, cached by the API (JSON array of the contract's `Guild`) for a
 * short TTL; the worker deletes it when Discord tells it the user's rights changed.
 * `userGuildsCacheKey('*')` is the SCAN pattern of every user's list.
 */
export function userGuildsCacheKey(userId: string): string {
  return `user-guilds:${userId}`;
}

/**
 * The API's short-lived copy of a guild's channels (each with its Discord type; `v2`: entries
 * before types were kept are not read) and of its roles, read with the bot token.
 */
export function guildChannelsCacheKey(guildId: string): string {
  return `guild-channels:v2:{${guildId}}`;
}

export function guildRolesCacheKey(guildId: string): string {
  return `guild-roles:{${guildId}}`;
}

/**
 * The API's short-lived copy of a guild's setup checklist; the worker deletes it (with the roles
 * and channels copies) on the gateway's role, channel and bot-member events.
 */
export function guildSetupCacheKey(guildId: string): string {
  return `guild-setup:{${guildId}}`;
}

/**
 * The API's short-lived answer to "is this user a member of this guild?" for the members-only
 * leaderboard page, so paging through it does not ask Discord on every request.
 */
export function guildMembershipCacheKey(guildId: string, userId: string): string {
  return `guild-member:${guildId}:${userId}`;
}

/** The API's short-lived copy of a guild's name and icon (the public leaderboard's header). */
export function guildProfileCacheKey(guildId: string): string {
  return `guild-profile:${guildId}`;
}

/** The API's short-lived copy of a guild's custom emojis (the ids a reaction list may use). */
export function guildEmojisCacheKey(guildId: string): string {
  return `guild-emojis:${guildId}`;
}

/** The API's short-lived copy of one member search of a guild (the query lowercased, and the limit). */
export function guildMemberSearchCacheKey(guildId: string, query: string, limit: number): string {
  return `guild-member-search:${guildId}:${limit}:${encodeURIComponent(query.toLowerCase())}`;
}

/**
 * One job per feature and guild at a time, across every worker process: the lock a job holds
 * while it runs (`feature` is the job name's part before the dot).
 */
export function guildJobLockKey(feature: string, guildId: string): string {
  return `job-lock:${feature}:${guildId}`;
}

/**
 * Hash of roles the bot cannot hand out because its role is not above them (field: role id,
 * value: the sentence the dashboard shows). The worker writes it, the API lists it with HVALS.
 */
export function colorWarningsKey(guildId: string): string {
  return `color-warnings:${guildId}`;
}

/**
 * Hash of a feature's role creates in flight (field: the target, value: name and color), so a
 * retry after a crash adopts the role it finds instead of creating a second one. `feature` is
 * the job names' part before the dot (`color-roles`, `personality-roles`).
 */
export function rolesCreatingKey(feature: string, guildId: string): string {
  return `${feature}:creating:${guildId}`;
}

/**
 * Serializes one member's role picks on a feature's panels across worker processes (and, for
 * color roles, with the generate job moving members to a new mode's roles). `feature` is the
 * job names' part before the dot. Role menus take the `color-roles` one (any menu may list
 * palette roles, and a member holds one color however it was picked).
 */
export function memberPickLockKey(feature: string, guildId: string, userId: string): string {
  return `${feature}:pick-lock:${guildId}:${userId}`;
}

/**
 * Hash of one member's role picks on a feature's panels (field `p:<interaction id>`: a pick not
 * yet applied, as JSON with its group; `d:<group>`: the newest interaction id applied in that
 * group, a colour panel or a personality question; `a:<group>`: that group's answer as JSON;
 * `s:<group>`: the newest interaction id saved while Discord could not be reached), so
 * the lock holder, in any worker process, applies the newest picks and every click is answered
 * with the outcome.
 */
export function memberPicksKey(feature: string, guildId: string, userId: string): string {
  return `${feature}:picks:${guildId}:${userId}`;
}

/**
 * Set of the members of a guild whose picks wait in their `memberPicksKey` hash because Discord
 * could not be reached when they clicked (members `<feature>:<user id>`): the guild's
 * `member-picks.apply` job applies them once Discord answers again.
 */
export function memberPicksWaitingKey(guildId: string): string {
  return `member-picks:waiting:${guildId}`;
}

/** The color role the member's last pick gave, for a gateway that reports the change late. */
export function lastColorPickKey(guildId: string, userId: string): string {
  return `color-last:${guildId}:${userId}`;
}

/**
 * JSON array of the role ids of one personality question the member held after their last
 * pick on it, so a click that waited behind that pick (its payload predates it) starts from it.
 */
export function lastPersonalityPickKey(guildId: string, userId: string, questionType: string): string {
  return `personality-roles:last-pick:${guildId}:${userId}:${questionType}`;
}

/**
 * What the latest personality refresh of a guild did (JSON of the contract's
 * `PersonalityLastRefresh`): status for the dashboard, written by the worker after every run
 * and read by the API. Kept out of Postgres so a steady-state refresh writes nothing there.
 */
export function personalityLastRefreshKey(guildId: string): string {
  return `personality-roles:last-refresh:{${guildId}}`;
}

/**
 * The latest personality refresh of a guild that repaired something (same JSON as
 * `personalityLastRefreshKey`), so the dashboard can say when something was last put back even
 * after a run that found everything in place (the next scheduled one, or a follow-up run a few
 * milliseconds later).
 */
export function personalityLastRepairKey(guildId: string): string {
  return `personality-roles:last-repair:{${guildId}}`;
}

// Leveling's XP buffer keys: their own file (this one would pass 400 lines), still exported here.
export * from './redis-keys-xp.ts';

/**
 * The database this prefix belongs to (`<deployment id> <database name>`, see the db package's
 * prefix-binding.ts), set once by the first API or worker to start: a process whose database
 * has another id refuses to start, so two deployments cannot share one prefix by mistake.
 */
export function prefixDatabaseKey(): string {
  return 'database';
}

/**
 * The lease of a gateway shard (`<shard>/<shard count>`): the worker process running it (value:
 * its token, host, pid and last heartbeat as JSON, apps/worker/src/shard-lease.ts), renewed
 * while it runs, so a second process configured for the same shard waits instead of counting
 * every message again, and takes the shard over once the lease lapses or its holder is
 * provably dead.
 */
export function shardLeaseKey(shardId: number, shardCount: number): string {
  // Tagged by the shard count: a claim takes several shards' leases in one script, which on a
  // Redis Cluster must touch one hash slot.
  return `shard-lease:{${shardCount}}:${shardId}/${shardCount}`;
}

/** SCAN pattern of shard `shardId`'s lease under any shard count (`shardLeaseKey`). */
export function shardLeaseAnyCountPattern(shardId: number): string {
  return `shard-lease:{*}:${shardId}/*`;
}

/** The shard count a `shardLeaseKey` names (its part after the last `/`). */
export function shardCountOfLease(key: string): number {
  return Number(key.slice(key.lastIndexOf('/') + 1));
}

/**
 * A shard's lease as workers from before the slot tags name it: a worker still running such a
 * version (a rolling upgrade) holds it, so a newer one leaves that shard alone until it lapses.
 */
export function legacyShardLeaseKey(shardId: number, shardCount: number): string {
  return `shard-lease:${shardId}/${shardCount}`;
}

/**
 * The lease of the active Discord proxy (`@spacecadet/discord-proxy`): the one process of several
 * that holds the bot token's rate limits and sends to Discord (value: its forwarding URL and
 * token as JSON, packages/discord-proxy/src/lease.ts), renewed every second with a TTL of a few,
 * so the others stand by, forward to it, and one of them takes over once it dies.
 */
export function discordProxyLeaseKey(): string {
  return 'discord-proxy-lease';
}

/**
 * Held (a short TTL, renewed by nothing) by the worker process moving the jobs of the single
 * queue of an older version into the shard queues: one process moves them at a time, so each
 * job is moved and counted once; the others wait for it, then find nothing left.
 */
export function legacyQueueDrainLockKey(): string {
  return 'legacy-queue-drain';
}

/**
 * Set by the worker holding a shard after it matched that shard's job schedulers to Postgres in
 * full: gone means Redis lost its keys (schedulers included), so the next check syncs the shard
 * in full again instead of reading every guild each minute. Tagged like the shard's queue.
 */
export function schedulesSyncedKey(shard: number, shardCount: number): string {
  return `schedules-synced:{${shard}}/${shardCount}`;
}

/**
 * The gateway IDENTIFY slot of a rate-limit bucket (`shard_id % max_concurrency`): set with NX
 * and a TTL of Discord's 5 seconds (plus a margin) by the worker process about to identify a
 * shard of that bucket (value: its token), so processes starting together identify one after
 * another, as Discord allows, instead of being answered with Invalid Session.
 */
export function identifyBucketKey(bucket: number): string {
  return `gateway-identify:${bucket}`;
}

/**
 * The guild's daily overview progress: `posting:<day>` while the worker posts the overview of
 * a UTC day (`YYYY-MM-DD`), `posted:<day>` once it did, so a re-run of that day's job does not
 * post it twice. A run that finds `posting:` looks for the message in the channel first.
 */
export function levelingOverviewPostedKey(guildId: string): string {
  return `leveling:overview-posted:${guildId}`;
}

/**
 * The queue view's way in for the platform owner (the API only): a one-time ticket (key: its
 * sha256, value: the session id, 60 s), then the browser's pass cookie (key: its sha256, value:
 * the session id, expiring with the session). Only hashes are stored, like session tokens.
 */
export function queueViewTicketKey(ticketHash: string): string {
  return `queue-view:ticket:${ticketHash}`;
}

export function queueViewPassKey(passHash: string): string {
  return `queue-view:pass:${passHash}`;
}

/**
 * The primary's WAL position (`pg_current_wal_lsn()`, e.g. `0/3000148`) just after an API write
 * for a guild or by a user, kept a short while: a read of theirs goes to the read replica only
 * once the replica has replayed that far (read-your-writes; apps/api/src/services/read-replica.ts).
 * Shared by every API replica, so the write and the read may land on different ones. A position
 * says nothing about the person, so a member's data export does not list it.
 */
export function replicaWriteMarkKey(scope: 'guild' | 'user', id: string): string {
  return `replica-wrote:${scope}:${id}`;
}

/**
 * The pub/sub channel on which any process tells every API replica which of its in-process
 * copies to drop (apps/api/src/services/replica-cache.ts). Channels are not keys: ioredis'
 * `keyPrefix` does not touch them, so the prefix is part of the name.
 */
export function apiCacheChannel(redisPrefix: string): string {
  return `${redisPrefix}:api-cache`;
}

/**
 * What an API replica must forget: a session (logout, revocation), one user's manageable guild
 * list, every list naming a guild (a rights change whose holders are unknown), a guild's config.
 */
export type ApiCacheDrop =
  | { kind: 'session'; id: string }
  | { kind: 'user-guilds'; id: string }
  | { kind: 'guild-lists'; id: string }
  | { kind: 'config'; id: string };

const API_CACHE_DROP_KINDS: ReadonlySet<string> = new Set([
  'session',
  'user-guilds',
  'guild-lists',
  'config',
]);

/**
 * `ack`: a token the sender waits to hear back on `${channel}:acks` from every replica that
 * applied the drop (the API's own announcements); the worker sends none.
 */
export function encodeApiCacheDrop(drop: ApiCacheDrop, ack?: string): string {
  return ack === undefined ? `${drop.kind}:${drop.id}` : `${drop.kind}:${drop.id} ${ack}`;
}

/** Null for a message no replica understands (it is then safest to drop everything). */
export function decodeApiCacheDrop(message: string): { drop: ApiCacheDrop; ack: string | null } | null {
  const [body = '', ack] = message.split(' ', 2);
  const colon = body.indexOf(':');
  const kind = body.slice(0, colon);
  const id = body.slice(colon + 1);
  if (colon < 1 || id === '' || !API_CACHE_DROP_KINDS.has(kind)) return null;
  return { drop: { kind, id } as ApiCacheDrop, ack: ack ?? null };
}

/**
 * The name a worker process gives its Redis connections (`CLIENT SETNAME`). `instance` is
 * unique per process and is also its BullMQ worker `name`, which BullMQ records on every job
 * the process takes (`processedBy`): so the API can tell from `CLIENT LIST` whether the process
 * running a job is still connected (a killed one's connections close at once).
 */
export function workerConnectionName(redisPrefix: string, instance: string): string {
  return `spacecadet-worker:${redisPrefix}:${instance}`;
}

/**
 * SCAN patterns (without the prefix) of every key of ours that belongs to one guild: each
 * guild-keyed builder above puts the guild id as a whole segment, after a `:` and followed by
 * nothing, a `:` (per-member keys) or a `.` (XP batches); or as a Redis Cluster hash tag `{<guild>}`
 * segment (keys one MULTI, script or DEL takes together, which must share a slot). Snowflakes are unique across Discord,
 * so a segment equal to the guild id names that guild; a key added later in this shape is
 * covered without editing the deletion. Not for BullMQ's keys (`bullPrefix`), which the queue's
 * own API removes, nor the job locks (`guildJobLockKey`), which expire with their holder.
 */
export function guildKeyPatterns(guildId: string): string[] {
  return [`*:${guildId}`, `*:${guildId}:*`, `*:${guildId}.*`, `*:{${guildId}}`, `*:{${guildId}}:*`];
}

/** Keys a guild's data deletion leaves alone: a held job lock must stay until its holder releases it. */
export function isGuildJobLockKey(key: string): boolean {
  return key.startsWith(guildJobLockKey('', '').replace(/:+$/, ':'));
}

/**
 * A guild's joins counted by the worker for the welcome's raid check (INCR, expiring after
 * `WELCOME_RAID_WINDOW_S`), and the mark that a raid is on (refreshed by each join of the burst):
 * while it is, greetings are merged into batches.
 */
export function welcomeJoinCountKey(guildId: string): string {
  return `welcome-joins:{${guildId}}`;
}

export function welcomeRaidKey(guildId: string): string {
  return `welcome-raid:{${guildId}}`;
}

/**
 * Set (NX, expiring) by the worker when it hears a member leave, so the same leave heard again
 * (a replayed GUILD_MEMBER_REMOVE, which carries no time of its own) says goodbye once.
 */
export function welcomeGoodbyeKey(guildId: string, userId: string): string {
  return `welcome-goodbye:${guildId}:${userId}`;
}
