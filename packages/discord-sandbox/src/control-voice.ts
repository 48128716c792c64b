/** `POST /_sandbox/voice`: a member joins, moves in, mutes or deafens themselves in, or leaves voice. */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { changeVoiceState, isVoiceChannel } from './voice.ts';

interface VoiceBody {
  guild_id?: unknown;
  user_id?: unknown;
  channel_id?: unknown;
  self_mute?: unknown;
  self_deaf?: unknown;
}

/**
 * Body `{guild_id, user_id, channel_id (null: leave), self_mute?, self_deaf?}`; answers the
 * member's voice state (`null` once they left) after VOICE_STATE_UPDATE was dispatched.
 */
export function registerVoiceControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post<{ Body: VoiceBody | undefined }>('/_sandbox/voice', async (req, reply) => {
    const body = req.body ?? {};
    const { guild_id: guildId, user_id: userId, channel_id: channelId } = body;
    if (typeof guildId !== 'string' || typeof userId !== 'string') {
      return controlError(reply, 400, 'invalid_request', '"guild_id" and "user_id" must be ids');
    }
    if (channelId !== null && typeof channelId !== 'string') {
      return controlError(
        reply,
        400,
        'invalid_request',
        '"channel_id" must be a channel id, or null to leave',
      );
    }
    for (const flag of ['self_mute', 'self_deaf'] as const) {
      if (body[flag] !== undefined && typeof body[flag] !== 'boolean') {
        return controlError(reply, 400, 'invalid_request', `"${flag}" must be true or false`);
      }
    }
    const guild = state.guilds.get(guildId);
    if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
    if (!state.users.has(userId)) return controlError(reply, 404, 'unknown_user', 'No such user');
    if (!guild.members.some((m) => m.user_id === userId)) {
      return controlError(reply, 404, 'unknown_member', 'That user is not a member of the guild');
    }
    if (channelId !== null) {
      const channel = guild.channels.find((c) => c.id === channelId);
      if (!channel) return controlError(reply, 404, 'unknown_channel', 'No such channel in that guild');
      if (!isVoiceChannel(channel.type)) {
        return controlError(reply, 400, 'not_voice_channel', 'Members can only join voice channels');
      }
    }
    const voice = changeVoiceState(state, guild, {
      userId,
      channelId,
      ...(typeof body.self_mute === 'boolean' ? { selfMute: body.self_mute } : {}),
      ...(typeof body.self_deaf === 'boolean' ? { selfDeaf: body.self_deaf } : {}),
    });
    return { voice_state: voice };
  });
}
