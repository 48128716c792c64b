import { randomBytes } from 'node:crypto';
import {
  GatewayDispatchEvents,
  InteractionContextType,
  type InteractionType,
  type Locale,
} from 'discord-api-types/v10';
import type { SandboxContext } from './context.ts';
import type { SandboxChannel, SandboxGuild, SandboxMember } from './fixture.ts';
import { apiMember } from './payloads.ts';
import { guildPermissions } from './permissions.ts';
import { type InteractionRecord, SandboxState } from './state.ts';

export const INTERACTION_TOKEN_TTL_MS = 15 * 60 * 1000;

export interface InteractionOutcome {
  interaction_id: string;
  responded: boolean;
  elapsed_ms: number;
  response: unknown;
  message: InteractionRecord['original'];
}

/** Stores the record the callback and webhook routes will find by id and token. */
export function newInteraction(
  ctx: SandboxContext,
  fields: Pick<
    InteractionRecord,
    'type' | 'guild_id' | 'channel_id' | 'message_id' | 'user_id' | 'custom_id' | 'values' | 'command_name'
  >,
): InteractionRecord {
  const { state } = ctx;
  // The record's time is the one its id carries, as on Discord, where the id is the only clock.
  const id = state.snowflake();
  const record: InteractionRecord = {
    ...fields,
    id,
    token: `sandbox.${randomBytes(24).toString('base64url')}`,
    application_id: state.application.id,
    created_ms: SandboxState.timeOf(id),
    response: null,
    responded_ms: null,
    original: null,
    followups: [],
    edits: [],
  };
  // Tokens live 15 minutes; older records can no longer be answered, so let them go.
  for (const old of state.interactions.values()) {
    if (record.created_ms - old.created_ms <= INTERACTION_TOKEN_TTL_MS) break;
    state.interactions.delete(old.id);
    state.interactionsByToken.delete(old.token);
  }
  state.interactions.set(record.id, record);
  state.interactionsByToken.set(record.token, record);
  return record;
}

/** Where a member's simulated interaction happens: its guild, channel and acting member. */
export interface InteractionPlace {
  guild: SandboxGuild;
  channel: SandboxChannel;
  member: SandboxMember;
}

/** Why the sandbox refuses an interaction's place: the control API's status, error and message. */
export interface PlaceRefusal {
  status: 403 | 404;
  error: string;
  message: string;
}

/** Looks up the guild, channel and member a simulated interaction names, or says which is missing. */
export function findInteractionPlace(
  state: SandboxState,
  ids: { guild_id?: string | undefined; channel_id?: string | undefined; user_id?: string | undefined },
): InteractionPlace | PlaceRefusal {
  const guild = ids.guild_id ? state.guilds.get(ids.guild_id) : undefined;
  if (!guild) return { status: 404, error: 'unknown_guild', message: 'No such guild' };
  const channel = guild.channels.find((c) => c.id === ids.channel_id);
  if (!channel) return { status: 404, error: 'unknown_channel', message: 'No such channel in that guild' };
  const member = guild.members.find((m) => m.user_id === ids.user_id);
  if (!member)
    return { status: 403, error: 'not_a_member', message: 'The user is not a member of that guild' };
  return { guild, channel, member };
}

/** The INTERACTION_CREATE fields every guild interaction carries (what discord.js requires). */
export function interactionEnvelope(
  ctx: SandboxContext,
  record: InteractionRecord,
  guild: SandboxGuild,
  channel: SandboxChannel,
  member: SandboxMember,
): Record<string, unknown> {
  const { state } = ctx;
  const locale = guild.preferred_locale as Locale;
  return {
    id: record.id,
    application_id: record.application_id,
    type: record.type satisfies InteractionType,
    guild: { id: guild.id, locale, features: [] },
    guild_id: guild.id,
    channel: { ...channel },
    channel_id: channel.id,
    member: { ...apiMember(state, member), permissions: guildPermissions(guild, member.user_id).toString() },
    token: record.token,
    version: 1,
    app_permissions: guildPermissions(guild, state.application.id).toString(),
    locale: 'en-US',
    guild_locale: locale,
    entitlements: [],
    authorizing_integration_owners: { '0': guild.id },
    context: InteractionContextType.Guild,
    attachment_size_limit: 10 * 1024 * 1024,
  };
}

/** Sends INTERACTION_CREATE and waits (up to the deadline) for the bot's first answer. */
export async function dispatchAndWait(
  ctx: SandboxContext,
  record: InteractionRecord,
  payload: Record<string, unknown>,
): Promise<InteractionOutcome> {
  const { state } = ctx;
  const started = Date.now();
  const responded = new Promise<boolean>((resolve) => {
    const timer = setTimeout(() => finish(false), ctx.interactionTimeoutMs);
    const onResponse = (id: string) => id === record.id && finish(true);
    function finish(ok: boolean) {
      clearTimeout(timer);
      state.events.off('interaction-responded', onResponse);
      resolve(ok);
    }
    state.events.on('interaction-responded', onResponse);
  });
  state.dispatch(GatewayDispatchEvents.InteractionCreate, payload, record.guild_id);
  const ok = await responded;
  return {
    interaction_id: record.id,
    responded: ok,
    elapsed_ms: Date.now() - started,
    response: record.response,
    message: record.original,
  };
}
