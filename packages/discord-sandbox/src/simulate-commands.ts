import {
  type APIApplicationCommandOption,
  ApplicationCommandOptionType,
  ApplicationCommandType,
  InteractionType,
} from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import type { SandboxGuild } from './fixture.ts';
import { apiMember, userOf } from './payloads.ts';
import { guildPermissions } from './permissions.ts';
import {
  dispatchAndWait,
  findInteractionPlace,
  interactionEnvelope,
  newInteraction,
} from './simulate-interaction.ts';

type OptionValue = string | number | boolean;
interface CommandBody {
  guild_id?: string;
  channel_id?: string;
  user_id?: string;
  name?: string;
  options?: Record<string, OptionValue>;
}

const O = ApplicationCommandOptionType;

/** Turns `{name: value}` into Discord's typed options plus the `resolved` users/roles/channels. */
function buildOptions(
  ctx: SandboxContext,
  guild: SandboxGuild,
  defined: APIApplicationCommandOption[],
  given: Record<string, OptionValue>,
):
  | {
      options: Array<{ name: string; type: number; value: OptionValue }>;
      resolved: Record<string, Record<string, unknown>>;
    }
  | string {
  const options: Array<{ name: string; type: number; value: OptionValue }> = [];
  const resolved: Record<string, Record<string, unknown>> = {};
  const add = (kind: string, id: string, value: unknown) => {
    resolved[kind] ??= {};
    (resolved[kind] as Record<string, unknown>)[id] = value;
  };
  for (const option of defined) {
    const raw = given[option.name];
    if (raw === undefined) {
      if ('required' in option && option.required) return `Option "${option.name}" is required`;
      continue;
    }
    let value: OptionValue = String(raw);
    if (option.type === O.Integer) value = Number.parseInt(String(raw), 10);
    if (option.type === O.Number) value = Number(raw);
    if (option.type === O.Boolean) value = raw === true || raw === 'true';
    if (typeof value === 'number' && Number.isNaN(value)) return `Option "${option.name}" must be a number`;
    if (option.type === O.User || option.type === O.Mentionable) {
      add('users', String(raw), userOf(ctx.state, String(raw)));
      const member = guild.members.find((m) => m.user_id === String(raw));
      if (member) {
        const { user: _user, ...rest } = apiMember(ctx.state, member);
        add('members', String(raw), {
          ...rest,
          permissions: guildPermissions(guild, member.user_id).toString(),
        });
      }
    }
    if (option.type === O.Role)
      add(
        'roles',
        String(raw),
        guild.roles.find((r) => r.id === String(raw)),
      );
    if (option.type === O.Channel)
      add(
        'channels',
        String(raw),
        guild.channels.find((c) => c.id === String(raw)),
      );
    options.push({ name: option.name, type: option.type, value });
  }
  return { options, resolved };
}

/** `POST /_sandbox/commands`: a member runs one of the bot's registered slash commands. */
export function registerCommandSimulation(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  app.post<{ Body: CommandBody | undefined }>('/_sandbox/commands', async (req, reply) => {
    const body = req.body ?? {};
    const place = findInteractionPlace(state, body);
    if ('error' in place) return controlError(reply, place.status, place.error, place.message);
    const { guild, channel, member } = place;
    // "xp set" runs the subcommand `set` of /xp.
    const [name = '', subcommand] = (body.name ?? '').replace(/^\//, '').trim().split(/\s+/);
    const isChatInput = (c: { name: string; type?: number }) =>
      c.name === name && (c.type ?? ApplicationCommandType.ChatInput) === ApplicationCommandType.ChatInput;
    const command =
      (state.guildCommands.get(guild.id) ?? []).find(isChatInput) ?? state.globalCommands.find(isChatInput);
    if (!command || !state.botIsIn(guild)) {
      return controlError(reply, 404, 'unknown_command', `The bot has no /${name} command here`);
    }
    const sub = subcommand
      ? (command.options ?? []).find((o) => o.type === O.Subcommand && o.name === subcommand)
      : undefined;
    if (subcommand && !sub) {
      return controlError(
        reply,
        404,
        'unknown_command',
        `The bot has no /${name} ${subcommand} command here`,
      );
    }
    const defined = sub && 'options' in sub ? (sub.options ?? []) : (command.options ?? []);
    const built = buildOptions(ctx, guild, defined as APIApplicationCommandOption[], body.options ?? {});
    if (typeof built === 'string') return controlError(reply, 400, 'invalid_options', built);
    const options = sub ? [{ name: sub.name, type: O.Subcommand, options: built.options }] : built.options;

    const record = newInteraction(ctx, {
      type: InteractionType.ApplicationCommand,
      guild_id: guild.id,
      channel_id: channel.id,
      message_id: '',
      user_id: member.user_id,
      custom_id: '',
      values: null,
      command_name: command.name,
    });
    return dispatchAndWait(ctx, record, {
      ...interactionEnvelope(ctx, record, guild, channel, member),
      data: {
        id: command.id,
        name: command.name,
        type: ApplicationCommandType.ChatInput,
        ...(options.length > 0 ? { options } : {}),
        ...(Object.keys(built.resolved).length > 0 ? { resolved: built.resolved } : {}),
        ...(command.guild_id ? { guild_id: command.guild_id } : {}),
      },
    });
  });
}
