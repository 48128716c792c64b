import { routes } from '@spacecadet/contract';
import { loadLevelingSettings, loadPeriodLeaderboard } from '@spacecadet/db/queries/leveling';
import type { FastifyInstance } from 'fastify';
import { ApiError, notFound } from '../../errors.ts';
import { authenticate, bearerToken } from '../../plugins/auth.ts';
import {
  LEADERBOARD_MEMBERS_ONLY_MESSAGE,
  LEADERBOARD_NOT_PUBLIC_MESSAGE,
  LEADERBOARD_SIGN_IN_MESSAGE,
  PUBLIC_LEADERBOARD_MAX_AGE_SEC,
  toLeaderboardMember,
} from '../../services/leveling/leaderboard.ts';
import { defineRoute } from '../define.ts';

/**
 * The public leaderboard page's data, as the server's admins allow: nobody (404, the same answer
 * as a server that never set it), members of the server (the session, when one is sent, and the
 * bot's view of the server's members), or anyone (cacheable for a short while).
 */
export function registerLevelingPublicRoutes(app: FastifyInstance): void {
  const { reads, guildResources } = app.services;
  /** The bot left: what it knew of the server is gone with it, and so is the page (404, not 409). */
  const pageGoneWithBot = (error: unknown): never => {
    if (error instanceof ApiError && error.code === 'bot_not_in_guild')
      throw notFound(LEADERBOARD_NOT_PUBLIC_MESSAGE);
    throw error;
  };

  defineRoute(app, routes.getPublicLeaderboard, async ({ params, query, request, reply }) => {
    const { guildId } = params;
    // The busiest read of all, and anyone's: the read replica's, once it has the guild's last write.
    const settings = await reads.read({ guildId }, (db) => loadLevelingSettings(db, guildId));
    const visibility = settings.leaderboardVisibility;
    if (visibility === 'off') throw notFound(LEADERBOARD_NOT_PUBLIC_MESSAGE);
    if (visibility === 'members') {
      // The route is public, so the guard read no session: read it here, only when it matters.
      if (bearerToken(request) === null) throw new ApiError('not_authenticated', LEADERBOARD_SIGN_IN_MESSAGE);
      const session = await authenticate(app.services, request);
      if (!(await guildResources.isMemberRecently(guildId, session.user.id).catch(pageGoneWithBot))) {
        throw new ApiError('forbidden', LEADERBOARD_MEMBERS_ONLY_MESSAGE);
      }
    }
    const [guild, page] = await Promise.all([
      guildResources.guildProfile(guildId).catch(pageGoneWithBot),
      reads.read({ guildId }, (db) =>
        loadPeriodLeaderboard(db, guildId, query.period, { limit: query.limit, offset: query.offset }),
      ),
    ]);
    reply.header(
      'cache-control',
      visibility === 'anyone' ? `public, max-age=${PUBLIC_LEADERBOARD_MAX_AGE_SEC}` : 'private, no-store',
    );
    if (visibility === 'members') reply.header('vary', 'Authorization');
    return {
      guild,
      visibility,
      period: query.period,
      members: page.members.map((entry) => toLeaderboardMember(entry, settings.levelCurve)),
      total: page.total,
    };
  });
}
