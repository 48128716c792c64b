import { routes, XP_IMPORT_BODY_LIMIT, XP_IMPORT_SKIPPED_LISTED } from '@spacecadet/contract';
import type { FastifyInstance } from 'fastify';
import { queueApplyRewards } from '../../services/leveling/jobs.ts';
import { xpExportCsv } from '../../services/leveling/xp-export.ts';
import { importXp, resetMemberXp, setMemberXp } from '../../services/leveling/xp-tools.ts';
import { defineRoute } from '../define.ts';

/** The admins' XP tools: set or reset one member's XP, import a file of XP, export it all. */
export function registerLevelingXpToolRoutes(app: FastifyInstance): void {
  defineRoute(app, routes.setMemberXp, async ({ params, body, requester, request, history }) => {
    const { guildId, userId } = params;
    const changed = await setMemberXp(app, guildId, userId, body.xp);
    history.state(
      `leveling:xp:${userId}`,
      { xp: changed.previousXp },
      { xp: changed.xp },
      `Set the XP of <@${userId}>: ${changed.previousXp} → ${changed.xp}`,
    );
    await queueApplyRewards(app, guildId, requester, request);
    return { user_id: userId, xp: changed.xp, level: changed.level };
  });

  // A member who left can be reset too (their row stays until pruned): no membership check.
  defineRoute(app, routes.resetMemberXp, async ({ params, requester, request, history }) => {
    const { guildId, userId } = params;
    const changed = await resetMemberXp(app, guildId, userId);
    history.state(
      `leveling:xp:${userId}`,
      { xp: changed.previousXp },
      { xp: 0 },
      `Reset the XP of <@${userId}> (${changed.previousXp} XP)`,
    );
    await queueApplyRewards(app, guildId, requester, request);
  });

  defineRoute(
    app,
    routes.importXp,
    async ({ params, query, body, requester, request, history }) => {
      const { imported, previous, skipped, jobId } = await importXp(
        app,
        params.guildId,
        body,
        query.mode,
        requester,
        request,
      );
      history.snapshot(
        'leveling:xp',
        { ...previous },
        `Imported the XP of ${imported} member${imported === 1 ? '' : 's'} (${query.mode})`,
      );
      return {
        imported,
        skipped: skipped.length,
        skipped_rows: skipped.slice(0, XP_IMPORT_SKIPPED_LISTED),
        job_id: jobId,
      };
    },
    { bodyLimit: XP_IMPORT_BODY_LIMIT },
  );

  defineRoute(app, routes.exportXp, async ({ params, reply, request }) => {
    const csv = await xpExportCsv(app, params.guildId, request);
    reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="leveling-${params.guildId}.csv"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(csv, 'utf8'));
    return '';
  });
}
