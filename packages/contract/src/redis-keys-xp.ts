/**
 * Leveling's XP buffer keys, part of `redis-keys.ts` (which re-exports them, so every key of every
 * process is still reached from one module); their own file only to keep that one readable.
 */
/**
 * Leveling's XP buffer. A member's last counted message (its time in ms, kept as long as the
 * longest cooldown, so the current cooldown setting is compared with it on every message), the
 * guild's XP earned since the last flush (hash, fields `<user>:x`, `<user>:m`, `<user>:s`, `<user>:n`, and
 * `<user>:v` for voice minutes), the
 * set of guilds with buffered XP, a batch taken out of the buffer to be written to Postgres,
 * and the batches in flight (sorted set scored by when they were taken, so a crashed writer's
 * batch is found and written by another process).
 */
export function xpCooldownKey(guildId: string, userId: string): string {
  return `xp-cd:${xpSlotTag(guildId)}:${guildId}:${userId}`;
}

export function xpPendingKey(guildId: string): string {
  return `xp-pending:${xpSlotTag(guildId)}:${guildId}`;
}

/** The dirty set of one slot group (`xpSlotGroup`): the group's guilds with buffered XP. */
export function xpDirtyGuildsKey(group: number): string {
  return `xp-dirty:${xpGroupTag(group)}`;
}

/** A batch id starts with its guild id (`<guild>.<uuid>`), which names its group. */
export function xpBatchKey(batchId: string): string {
  const guildId = batchId.slice(0, Math.max(0, batchId.indexOf('.')));
  return `${xpBatchKeyStart(xpSlotGroup(guildId))}${batchId}`;
}

/** What every batch key of a slot group starts with (a script builds them from batch ids). */
export function xpBatchKeyStart(group: number): string {
  return `xp-batch:${xpGroupTag(group)}:`;
}

/** The batches in flight of one slot group. */
export function xpBatchesKey(group: number): string {
  return `xp-batches:${xpGroupTag(group)}`;
}

/**
 * Redis Cluster: a script or MULTI must touch keys of one hash slot. The XP buffer's scripts
 * touch a member's cooldown, the guild's pending hash and unpriced list, and a set listing the
 * guilds (dirty, batches, unpriced), so every XP key of a guild carries the `{xp-<k>}` tag of
 * its group: XP_SLOT_GROUPS groups, each one slot, spread over the cluster's masters. The sets
 * that used to be global are one per group, and the flush reads every group's.
 */
export const XP_SLOT_GROUPS = 16;

/** The slot group of a guild: a stable hash of its id (every process must agree on it). */
export function xpSlotGroup(guildId: string): number {
  let hash = 0;
  for (let i = 0; i < guildId.length; i += 1) hash = (hash * 31 + guildId.charCodeAt(i)) >>> 0;
  return hash % XP_SLOT_GROUPS;
}

function xpGroupTag(group: number): string {
  return `{xp-${group}}`;
}

/** The tag of a guild's XP keys; `*` (a SCAN pattern's guild) matches every group's. */
function xpSlotTag(guildId: string): string {
  return guildId === '*' ? '*' : xpGroupTag(xpSlotGroup(guildId));
}

/**
 * The XP buffer's keys before they carried slot tags (`xp-pending:<guild>`, `xp-dirty`,
 * `xp-batches`, `xp-batch:<id>`, `xp-unpriced:<guild>`, `xp-unpriced`): a deployment upgrading
 * may hold XP under them that is not in Postgres yet. The worker moves it into the tagged keys
 * at start (apps/worker/src/features/leveling/xp-upgrade.ts). Read only there.
 */
export const LEGACY_XP_KEYS = {
  pending: (guildId: string) => `xp-pending:${guildId}`,
  dirty: 'xp-dirty',
  batches: 'xp-batches',
  batch: (batchId: string) => `xp-batch:${batchId}`,
  unpriced: (guildId: string) => `xp-unpriced:${guildId}`,
  unpricedGuilds: 'xp-unpriced',
} as const;

/**
 * Voice XP: the guild's minute (the UTC minute ending at `minuteEnd`, ms) once a process
 * credited it (SET NX, kept for a few minutes): the claim and the credit are one script, so a
 * tick that runs twice, or two processes counting one guild, credit a minute once. A member's
 * voice minutes go in the XP buffer's `xpPendingKey` hash as `<user>:v`.
 */
export function voiceMinuteKey(guildId: string, minuteEnd: number): string {
  // In the guild's XP slot: the claim and the credit into the pending hash are one script.
  return `voice-minute:${xpSlotTag(guildId)}:${guildId}:${minuteEnd}`;
}

/**
 * Chat messages not yet priced: a guild's messages that came while its leveling setup could
 * not be read (Postgres down and no copy in memory), in order (list of JSON), and the guilds
 * that have some (sorted set scored by when a process may next take the guild; 0: now).
 */
export function xpUnpricedKey(guildId: string): string {
  return `xp-unpriced:${xpSlotTag(guildId)}:${guildId}`;
}

/** The guilds of one slot group with unpriced messages. */
export function xpUnpricedGuildsKey(group: number): string {
  return `xp-unpriced:${xpGroupTag(group)}`;
}
