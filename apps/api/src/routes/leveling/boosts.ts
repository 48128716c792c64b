import { type Boost, routes } from '@spacecadet/contract';
import { channelBoostUserId, roleBoostUserId } from '@spacecadet/core';
import type { FastifyInstance } from 'fastify';
import type { HistoryNote } from '../../history/recorder.ts';
import {
  addBoost,
  boostSummary,
  removeBoost,
  toBoost,
  toBoostState,
} from '../../services/leveling/boosts.ts';
import { defineRoute } from '../define.ts';

/** XP boosts: server-wide or for a member, a role or a channel; and their deletion. */
export function registerLevelingBoostRoutes(app: FastifyInstance): void {
  const { db } = app.services;

  /** A server-wide, member or role boost: one row either way, its `user_id` says whose. */
  async function createBoost(
    guildId: string,
    userId: string | null,
    boost: { multiplier: number; expires_at: string | null },
    history: HistoryNote,
  ): Promise<Boost> {
    const row = await addBoost(db, guildId, userId, boost);
    history.state(`leveling:boost:${row.id}`, null, toBoostState(row), `Added a ${boostSummary(row)}`);
    return toBoost(row);
  }

  defineRoute(app, routes.createBoost, ({ params, body, history }) =>
    createBoost(params.guildId, body.user_id, body, history),
  );

  defineRoute(app, routes.createRoleBoost, ({ params, body, history }) =>
    createBoost(params.guildId, roleBoostUserId(body.role_id), body, history),
  );

  defineRoute(app, routes.createChannelBoost, ({ params, body, history }) =>
    createBoost(params.guildId, channelBoostUserId(body.channel_id), body, history),
  );

  defineRoute(app, routes.deleteBoost, async ({ params, history }) => {
    const deleted = await removeBoost(db, params.guildId, params.boostId);
    history.state(
      `leveling:boost:${deleted.id}`,
      toBoostState(deleted),
      null,
      `Deleted a ${boostSummary(deleted)}`,
    );
  });
}
