import type { Client, GatewayDispatchPayload } from 'discord.js';
import { onGateway } from '../feature.ts';

/**
 * Guilds whose question messages this process read back from Discord during its gateway
 * session, with no message or channel of the guild deleted since. The process holds the
 * guild's shard, so it hears of every such delete; a refresh of a verified guild then trusts
 * the stored message ids and digests instead of reading the channel, and a steady-state
 * refresh makes no REST call (each counts against the bot's 50 requests per second).
 * A new session (READY) forgets everything: deletes made while it was away were not heard.
 */
interface Verification {
  verified: Set<string>;
  /** Bumped on every delete heard, so a check that raced a delete does not count. */
  generation: Map<string, number>;
}

const byClient = new WeakMap<Client, Verification>();

function of(client: Client): Verification {
  let state = byClient.get(client);
  if (!state) {
    state = { verified: new Set(), generation: new Map() };
    byClient.set(client, state);
  }
  return state;
}

function forget(client: Client, guildId: string): void {
  const state = of(client);
  state.verified.delete(guildId);
  state.generation.set(guildId, (state.generation.get(guildId) ?? 0) + 1);
}

/** Taken before reading the channel; `markVerified` with it counts only if no delete came since. */
export function verificationTicket(client: Client, guildId: string): number {
  return of(client).generation.get(guildId) ?? 0;
}

export function markVerified(client: Client, guildId: string, ticket: number): void {
  const state = of(client);
  const held = client.guilds.cache.get(guildId)?.available === true;
  if (held && (state.generation.get(guildId) ?? 0) === ticket) state.verified.add(guildId);
}

/** Verified, and this process still holds the guild (so it would hear of a delete). */
export function isVerified(client: Client, guildId: string): boolean {
  return of(client).verified.has(guildId) && client.guilds.cache.get(guildId)?.available === true;
}

function guildOf(packet: GatewayDispatchPayload): string | undefined {
  switch (packet.t) {
    case 'MESSAGE_DELETE':
    case 'MESSAGE_DELETE_BULK':
      return packet.d.guild_id;
    case 'CHANNEL_DELETE':
      return 'guild_id' in packet.d ? packet.d.guild_id : undefined;
    case 'GUILD_CREATE':
    case 'GUILD_DELETE':
      return packet.d.id;
    default:
      return undefined;
  }
}

/** Raw packets: message deletes are not emitted by discord.js for uncached messages. */
export const forgetVerifiedOnDelete = onGateway(
  'raw',
  'forget verified personality messages',
  (deps, packet) => {
    if (packet.t === 'READY') {
      byClient.delete(deps.client);
      return;
    }
    const guildId = guildOf(packet);
    if (guildId) forget(deps.client, guildId);
  },
);
