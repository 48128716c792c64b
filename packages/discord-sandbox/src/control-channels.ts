import { PermissionFlagsBits } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { deleteOverwrite, putOverwrite } from './mutations.ts';
import { channelPermissions } from './permissions.ts';
import { type OverwriteBody, parseOverwrite } from './rest/channels.ts';

type OverwriteParams = { channelId: string; overwriteId: string };

/**
 * `PUT` / `DELETE /_sandbox/channels/:c/permissions/:o`: an admin sets or removes a channel
 * permission overwrite (body as Discord's: `{type: 0 role | 1 member, allow, deny}`), without
 * the bot's permission checks; CHANNEL_UPDATE follows, as for the bot's own changes.
 */
export function registerChannelControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.put<{ Params: OverwriteParams; Body: OverwriteBody | undefined }>(
    '/_sandbox/channels/:channelId/permissions/:overwriteId',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found) return controlError(reply, 404, 'unknown_channel', 'No such channel');
      const parsed = parseOverwrite(req.params.overwriteId, req.body ?? {});
      if ('issues' in parsed) {
        return controlError(
          reply,
          400,
          'invalid_overwrite',
          '"type" must be 0 (role) or 1 (member); "allow" and "deny" permission integers as strings',
        );
      }
      const { guild, channel } = found;
      const { overwrite } = parsed;
      const known =
        overwrite.type === 0
          ? guild.roles.some((r) => r.id === overwrite.id)
          : guild.members.some((m) => m.user_id === overwrite.id);
      if (!known) return controlError(reply, 404, 'unknown_target', 'No such role or member in that guild');
      putOverwrite(state, guild, channel, overwrite);
      return structuredClone(channel);
    },
  );

  app.delete<{ Params: OverwriteParams }>(
    '/_sandbox/channels/:channelId/permissions/:overwriteId',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found) return controlError(reply, 404, 'unknown_channel', 'No such channel');
      if (!deleteOverwrite(state, found.guild, found.channel, req.params.overwriteId)) {
        return controlError(reply, 404, 'unknown_overwrite', 'That channel has no overwrite for this id');
      }
      return structuredClone(found.channel);
    },
  );

  // What a member may do in a channel, computed as Discord does (roles, then overwrites).
  app.get<{ Params: { guildId: string; channelId: string; userId: string } }>(
    '/_sandbox/guilds/:guildId/channels/:channelId/members/:userId/permissions',
    async (req, reply) => {
      const found = state.guildOfChannel(req.params.channelId);
      if (!found || found.guild.id !== req.params.guildId) {
        return controlError(reply, 404, 'unknown_channel', 'No such channel in that guild');
      }
      if (!found.guild.members.some((m) => m.user_id === req.params.userId)) {
        return controlError(reply, 404, 'unknown_member', 'No such member in that guild');
      }
      const bits = channelPermissions(found.guild, found.channel, req.params.userId);
      return {
        permissions: bits.toString(),
        view_channel: (bits & PermissionFlagsBits.ViewChannel) !== 0n,
      };
    },
  );
}
