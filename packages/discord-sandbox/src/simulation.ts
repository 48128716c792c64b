import {
  type APIMessage,
  ComponentType,
  GatewayCloseCodes,
  InteractionType,
  PermissionFlagsBits,
} from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import type { SandboxGateway } from './gateway.ts';
import { buildMessage, postMessage } from './message-mutations.ts';
import { channelPermissions, hasAll } from './permissions.ts';
import { findAnyMessage } from './rest/interaction-messages.ts';
import { isShownChoice, noteChoice } from './select-choices.ts';
import { registerCommandSimulation } from './simulate-commands.ts';
import {
  dispatchAndWait,
  findInteractionPlace,
  interactionEnvelope,
  newInteraction,
} from './simulate-interaction.ts';

interface InteractionBody {
  guild_id?: string;
  channel_id?: string;
  message_id?: string;
  user_id?: string;
  custom_id?: string;
  values?: string[];
}

function findComponent(message: APIMessage, customId: string): { type: number } | undefined {
  for (const row of message.components ?? []) {
    if (!('components' in row) || !Array.isArray(row.components)) continue;
    for (const c of row.components as Array<{ type: number; custom_id?: string }>) {
      if (c.custom_id === customId) return c;
    }
  }
  return undefined;
}

/** Members acting in chat: posting messages and clicking components; plus gateway control. */
export function registerSimulationRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  gateway: SandboxGateway,
): void {
  registerMessageSimulation(app, ctx);
  registerComponentSimulation(app, ctx);
  registerCommandSimulation(app, ctx);

  app.get<{ Params: { id: string } }>('/_sandbox/interactions/:id', async (req, reply) => {
    return (
      ctx.state.interactions.get(req.params.id) ??
      controlError(reply, 404, 'unknown_interaction', 'No such interaction')
    );
  });

  registerGatewayControl(app, gateway);
}

/** `POST /_sandbox/messages`: a member posts a message in a text channel they may send in. */
function registerMessageSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post<{
    Body: { guild_id?: string; channel_id?: string; author_id?: string; content?: string } | undefined;
  }>('/_sandbox/messages', async (req, reply) => {
    const { guild_id, channel_id, author_id, content } = req.body ?? {};
    const guild = guild_id ? state.guilds.get(guild_id) : undefined;
    if (!guild) return controlError(reply, 404, 'unknown_guild', 'No such guild');
    const channel = guild.channels.find((c) => c.id === channel_id);
    if (channel?.type !== 0)
      return controlError(reply, 404, 'unknown_channel', 'No such text channel in that guild');
    if (!guild.members.some((m) => m.user_id === author_id) || !author_id) {
      return controlError(reply, 403, 'not_a_member', 'The author is not a member of that guild');
    }
    const bits = channelPermissions(guild, channel, author_id);
    if (!hasAll(bits, PermissionFlagsBits.ViewChannel | PermissionFlagsBits.SendMessages)) {
      return controlError(
        reply,
        403,
        'missing_permissions',
        'The author cannot send messages in that channel',
      );
    }
    if (!content || content.length > 2000)
      return controlError(reply, 400, 'invalid_content', 'content must be 1-2000 characters');
    const message = postMessage(
      state,
      guild,
      buildMessage(state, { channel_id: channel.id, author_id, content }),
    );
    return { id: message.id };
  });
}

/**
 * `POST /_sandbox/interactions`: a member clicks a button or picks in a select on a message they
 * see; the bot gets INTERACTION_CREATE and the answer is awaited.
 */
function registerComponentSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  app.post<{ Body: InteractionBody | undefined }>('/_sandbox/interactions', async (req, reply) => {
    const body = req.body ?? {};
    const place = findInteractionPlace(state, body);
    if ('error' in place) return controlError(reply, place.status, place.error, place.message);
    const { guild, channel, member } = place;
    if ((channelPermissions(guild, channel, member.user_id) & PermissionFlagsBits.ViewChannel) === 0n) {
      return controlError(reply, 403, 'missing_permissions', 'The user cannot see that channel');
    }
    const found = body.message_id ? findAnyMessage(state, body.message_id) : null;
    if (!found || found.message.channel_id !== channel.id) {
      return controlError(reply, 404, 'unknown_message', 'No such message in that channel');
    }
    if (found.ephemeralOf && found.ephemeralOf.user_id !== member.user_id) {
      return controlError(reply, 403, 'not_visible', 'That ephemeral message belongs to another user');
    }
    const component = body.custom_id ? findComponent(found.message, body.custom_id) : undefined;
    if (!component || !body.custom_id)
      return controlError(reply, 404, 'unknown_component', 'No component with that custom_id');
    const isButton = component.type === ComponentType.Button;
    if (!isButton && !Array.isArray(body.values))
      return controlError(reply, 400, 'values_required', 'A select needs "values"');
    if (!isButton && isShownChoice(found.message, member.user_id, body.custom_id, body.values ?? [])) {
      return controlError(
        reply,
        409,
        'already_chosen',
        "The member's client shows these options as chosen already, and Discord sends no interaction for choosing them again; the message must be edited (or the interaction answered with UPDATE_MESSAGE) to clear the choice",
      );
    }
    if (!isButton) noteChoice(found.message, member.user_id, body.custom_id, body.values ?? []);

    const record = newInteraction(ctx, {
      type: InteractionType.MessageComponent,
      guild_id: guild.id,
      channel_id: channel.id,
      message_id: found.message.id,
      user_id: member.user_id,
      custom_id: body.custom_id,
      values: isButton ? null : (body.values ?? []),
      command_name: null,
    });
    return dispatchAndWait(ctx, record, {
      ...interactionEnvelope(ctx, record, guild, channel, member),
      data: isButton
        ? { custom_id: record.custom_id, component_type: ComponentType.Button }
        : { custom_id: record.custom_id, component_type: component.type, values: record.values ?? [] },
      message: found.message,
    });
  });
}

/** Gateway control: close the bot's connections (and hold new ones off), release, read presence. */
function registerGatewayControl(app: FastifyInstance, gateway: SandboxGateway): void {
  app.post<{ Body: { code?: number; hold?: boolean } | undefined }>(
    '/_sandbox/gateway/close',
    async (req) => {
      const code = req.body?.code ?? GatewayCloseCodes.UnknownError;
      return { closed: gateway.closeConnections(code, req.body?.hold === true) };
    },
  );

  app.post('/_sandbox/gateway/release', async () => {
    gateway.release();
    return { ok: true };
  });

  app.get('/_sandbox/presence', async () => gateway.presence());
}
