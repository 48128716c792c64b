import { OverwriteType, PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxContext } from '../context.ts';
import { deleteOverwrite, putOverwrite } from '../mutations.ts';
import { ALL_PERMISSIONS, channelPermissions, guildPermissions } from '../permissions.ts';
import { discordError, type Issue, invalidFormBody, missingPermissions } from './discord-errors.ts';
import { requireBot } from './http.ts';

type OverwriteParams = { channelId: string; overwriteId: string };
export type OverwriteBody = { type?: unknown; allow?: unknown; deny?: unknown };

const BITS = /^\d{1,20}$/;

/** Discord's field errors for an overwrite body, or the parsed overwrite. */
export function parseOverwrite(
  id: string,
  body: OverwriteBody,
): { issues: Issue[] } | { overwrite: { id: string; type: OverwriteType; allow: string; deny: string } } {
  const issues: Issue[] = [];
  if (body.type !== 0 && body.type !== 1) {
    issues.push({ path: ['type'], code: 'BASE_TYPE_CHOICES', message: 'Value must be one of {0, 1}.' });
  }
  for (const key of ['allow', 'deny'] as const) {
    const value = body[key];
    if (value !== undefined && value !== null && !(typeof value === 'string' && BITS.test(value))) {
      issues.push({
        path: [key],
        code: 'NUMBER_TYPE_COERCE',
        message: `Value "${String(value)}" is not int.`,
      });
    }
  }
  if (issues.length > 0) return { issues };
  const bits = (value: unknown) =>
    (BigInt(typeof value === 'string' ? value : '0') & ALL_PERMISSIONS).toString();
  return {
    overwrite: { id, type: body.type as OverwriteType, allow: bits(body.allow), deny: bits(body.deny) },
  };
}

/**
 * `PUT` / `DELETE /channels/:id/permissions/:overwrite_id`, as Discord: the bot needs Manage
 * Roles (Manage Permissions) in the channel and can only allow or deny what it has itself
 * (unless it is an administrator); each change is a CHANNEL_UPDATE.
 */
export function registerChannelRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const botId = () => state.application.id;

  /** The channel in the path, as Discord finds it for the bot: 404 unknown, 50001 unseen. */
  const channelTheBotSees = (req: FastifyRequest<{ Params: OverwriteParams }>, reply: FastifyReply) => {
    if (!requireBot(ctx, req, reply)) return null;
    const found = state.guildOfChannel(req.params.channelId);
    if (!found) {
      discordError(reply, 404, 10003, 'Unknown Channel');
      return null;
    }
    const { guild, channel } = found;
    const mine = state.botIsIn(guild) ? channelPermissions(guild, channel, botId()) : 0n;
    if ((mine & PermissionFlagsBits.ViewChannel) === 0n) {
      discordError(reply, 403, 50001, 'Missing Access');
      return null;
    }
    return { guild, channel, mine };
  };

  api.put<{ Params: OverwriteParams; Body: OverwriteBody | undefined }>(
    '/channels/:channelId/permissions/:overwriteId',
    async (req, reply) => {
      const seen = channelTheBotSees(req, reply);
      if (!seen) return reply;
      const { guild, channel, mine } = seen;
      const parsed = parseOverwrite(req.params.overwriteId, req.body ?? {});
      if ('issues' in parsed) return invalidFormBody(reply, parsed.issues);
      const { overwrite } = parsed;
      if (overwrite.type === OverwriteType.Role && !guild.roles.some((r) => r.id === overwrite.id)) {
        return discordError(reply, 404, 10011, 'Unknown Role');
      }
      if (overwrite.type === OverwriteType.Member && !guild.members.some((m) => m.user_id === overwrite.id)) {
        return discordError(reply, 404, 10013, 'Unknown User');
      }
      if ((mine & PermissionFlagsBits.ManageRoles) === 0n) return missingPermissions(reply);
      const admin = (guildPermissions(guild, botId()) & PermissionFlagsBits.Administrator) !== 0n;
      const touched = BigInt(overwrite.allow) | BigInt(overwrite.deny);
      if (!admin && (touched & ~mine) !== 0n) return missingPermissions(reply);
      putOverwrite(state, guild, channel, overwrite);
      return reply.code(204).send();
    },
  );

  api.delete<{ Params: OverwriteParams }>(
    '/channels/:channelId/permissions/:overwriteId',
    async (req, reply) => {
      const seen = channelTheBotSees(req, reply);
      if (!seen) return reply;
      const { guild, channel, mine } = seen;
      if ((mine & PermissionFlagsBits.ManageRoles) === 0n) return missingPermissions(reply);
      if (!deleteOverwrite(state, guild, channel, req.params.overwriteId)) {
        return discordError(reply, 404, 10009, 'Unknown Overwrite');
      }
      return reply.code(204).send();
    },
  );
}
