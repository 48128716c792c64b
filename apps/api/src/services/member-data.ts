import type { MemberDataErased, MemberDataExport } from '@spacecadet/contract';
import { eraseMemberData, readMemberData, type StoredMemberData } from '@spacecadet/db/queries/member-data';
import type { FastifyBaseLogger } from 'fastify';
import type { AppServices } from './container.ts';
import { unlinkRoleConnection } from './leveling/linked-roles.ts';
import { dropBufferedXp, dropUserRedis, readUserRedis } from './member-data-redis.ts';

/**
 * A member's own data (GDPR access and erasure): everything stored about the signed-in user,
 * downloaded as JSON, and its erase. Postgres is read and erased by the db package's
 * member-data queries, Redis by member-data-redis.ts.
 */

type Services = Pick<
  AppServices,
  'db' | 'reads' | 'redis' | 'sessions' | 'replicaCache' | 'discord' | 'cipher'
>;

const iso = (date: Date | string | null) => (date === null ? null : new Date(date).toISOString());

export async function exportMemberData(services: Services, userId: string): Promise<MemberDataExport> {
  const [stored, redis] = await Promise.all([
    // The read replica's, once it has the user's own last write through the API.
    services.reads.read({ userId }, (db) => readMemberData(db, userId)),
    readUserRedis(services.redis, userId),
  ]);
  return {
    user_id: userId,
    exported_at: new Date().toISOString(),
    sessions: stored.sessions.map((s) => ({
      id: s.id,
      username: s.username,
      avatar: s.avatar,
      created_at: s.createdAt.toISOString(),
      expires_at: s.expiresAt.toISOString(),
      revoked_at: iso(s.revokedAt),
    })),
    servers: servers(stored),
    history: stored.history.map((entry) => ({
      id: entry.id,
      guild_id: entry.guildId,
      at: entry.at.toISOString(),
      role: entry.actorId === userId ? 'actor' : 'named',
      actor_name: entry.actorName,
      actor_avatar: entry.actorAvatar,
      action: entry.action,
      summary: entry.summary,
      refs: entry.refs,
    })),
    redis,
  };
}

/** The per-server rows, one entry per server that holds any. */
function servers(stored: StoredMemberData): MemberDataExport['servers'] {
  const byGuild = new Map<string, MemberDataExport['servers'][number]>();
  const of = (guildId: string) => {
    let server = byGuild.get(guildId);
    if (!server) {
      server = {
        guild_id: guildId,
        xp: null,
        seasons: [],
        daily: [],
        pending_level_ups: [],
        picks: [],
        boosts: [],
        answers: [],
        sticky_roles: [],
        last_changed: [],
      };
      byGuild.set(guildId, server);
    }
    return server;
  };
  for (const row of stored.xp) {
    of(row.guildId).xp = {
      xp: row.xp,
      level: row.level,
      message_count: row.messageCount,
      last_message_at: iso(row.lastMessageAt),
      username: row.username,
      avatar: row.avatar,
      left_at: iso(row.leftAt),
      kept_level: row.keptLevel,
    };
  }
  for (const row of stored.seasons) {
    const { season, xp, level } = row;
    of(row.guildId).seasons.push({ season, ended_at: row.endedAt.toISOString(), xp, level });
  }
  for (const row of stored.daily) {
    of(row.guildId).daily.push({ day: row.day, xp: row.xp, messages: row.messages, level_ups: row.levelUps });
  }
  for (const row of stored.levelUps) {
    of(row.guildId).pending_level_ups.push({ level: row.level, created_at: row.createdAt.toISOString() });
  }
  for (const row of stored.picks) {
    of(row.guildId).picks.push({
      scope: row.scope,
      target_key: row.targetKey,
      picked_at: row.pickedAt.toISOString(),
    });
  }
  for (const row of stored.boosts) {
    of(row.guildId).boosts.push({ multiplier: row.multiplier, expires_at: iso(row.expiresAt) });
  }
  for (const row of stored.answers) {
    of(row.guildId).answers.push({
      question_id: row.questionId,
      option_id: row.optionId,
      kind: row.kind,
      source: row.source,
      at: row.at.toISOString(),
    });
  }
  for (const row of stored.sticky) {
    of(row.guildId).sticky_roles.push({ role_ids: row.roleIds, left_at: row.leftAt.toISOString() });
  }
  for (const row of stored.configs)
    of(row.guildId).last_changed.push({ what: 'config', at: row.updatedAt.toISOString() });
  for (const row of stored.menus) {
    of(row.guildId).last_changed.push({ what: `role menu ${row.id}`, at: row.updatedAt.toISOString() });
  }
  return [...byGuild.values()].sort((a, b) => (a.guild_id < b.guild_id ? -1 : 1));
}

/**
 * Erases the user's data. Order matters: their buffered XP leaves Redis first (in one script, so
 * no batch taken later holds it), then Postgres is erased with a marker per batch that was in
 * flight (its writer skips them; see the db package's member-xp/erasures.ts), then their other
 * Redis keys go and their sessions end (the request's own too: the dashboard signs out).
 */
export async function eraseMember(
  services: Services,
  userId: string,
  log: FastifyBaseLogger,
): Promise<MemberDataErased> {
  // Their Linked Roles connection is cleared on Discord while their token is still here.
  await unlinkRoleConnection(services, userId, log);
  const buffered = await dropBufferedXp(services.redis, userId);
  const erased = await eraseMemberData(services.db, userId, buffered.inFlight);
  const keys = await dropUserRedis(services.redis, userId);
  await services.replicaCache.announce({ kind: 'user-guilds', id: userId });
  const sessionsRevoked = await services.sessions.revokeUser(userId);
  return { ...erased, redis_keys: keys + buffered.dropped, sessions_revoked: sessionsRevoked };
}
