import { RANK_CARD_BACKGROUND_BODY_LIMIT, routes } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';
import {
  rankCardPreview,
  removeRankCardBackground,
  setRankCardBackground,
} from '../../services/leveling/rank-card.ts';
import { defineRoute } from '../define.ts';

/** The server's rank card: its preview (a PNG), and its background's upload (the raw PNG or JPEG as the body) and removal. */
export function registerLevelingRankCardRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  defineRoute(app, routes.getRankCardPreview, async ({ params, query, session, reply }) => {
    const png = await rankCardPreview(db, params.guildId, session.user.username, query.accent, () =>
      app.services.guildResources.botRoles(params.guildId).catch((error: unknown) => {
        // Without the bot in the server no role colors a card yet: the default accent.
        if (error instanceof ApiError && error.code === 'bot_not_in_guild') return [];
        throw error;
      }),
    );
    reply.type('image/png').header('cache-control', 'no-store').send(png);
    return '';
  });

  defineRoute(
    app,
    routes.putRankCardBackground,
    async ({ params, body, history }) => {
      const set = await setRankCardBackground(db, params.guildId, body);
      history.describe({
        subject: 'leveling:rank-card',
        summary: `Set the rank card background (${set.content_type === 'image/png' ? 'PNG' : 'JPEG'}, ${set.width}×${set.height})`,
      });
      return set;
    },
    // Above the image's limit, so a larger image gets the API's own 413 message.
    { bodyLimit: RANK_CARD_BACKGROUND_BODY_LIMIT },
  );

  defineRoute(app, routes.deleteRankCardBackground, async ({ params, history }) => {
    const removed = await removeRankCardBackground(db, params.guildId);
    history.describe({
      subject: 'leveling:rank-card',
      summary: removed
        ? 'Removed the rank card background'
        : 'Removed the rank card background (there was none)',
    });
  });
}
