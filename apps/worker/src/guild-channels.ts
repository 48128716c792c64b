import { type Client, Events, type GatewayDispatchPayload } from 'discord.js';

/**
 * Which channels each guild of this process's shards has, by id only: discord.js keeps no
 * channel (discord-client.ts), yet a level-up announcement (on the chat path) and jobs must
 * know a stored channel is the guild's own without asking Discord. One string of ids per
 * guild (",id,id,"): about 20 bytes a channel, kept current from the gateway's raw packets.
 * Threads are not listed; a channel not found here is asked of Discord (guild-scope.ts).
 */
const stores = new WeakMap<Client, Map<string, string>>();

function storeOf(client: Client): Map<string, string> {
  let store = stores.get(client);
  if (!store) {
    store = new Map();
    stores.set(client, store);
  }
  return store;
}

const joined = (ids: readonly string[]): string => `,${ids.join(',')},`;

/**
 * Per channel, the roles whose overwrite allows View Channel (",role,role,"), so personality
 * roles' channel access is checked without a request; only channels with such an overwrite are
 * kept. Keyed by channel id (ids are unique across guilds); the guild is checked separately.
 */
const openedStores = new WeakMap<Client, Map<string, string>>();

function openedOf(client: Client): Map<string, string> {
  let store = openedStores.get(client);
  if (!store) {
    store = new Map();
    openedStores.set(client, store);
  }
  return store;
}

const VIEW_CHANNEL = 1n << 10n;

interface ChannelPacket {
  id: string;
  permission_overwrites?: ReadonlyArray<{ id: string; type: number; allow: string }>;
}

function noteOverwrites(opened: Map<string, string>, channel: ChannelPacket): void {
  const roles = (channel.permission_overwrites ?? []).filter(
    (overwrite) => overwrite.type === 0 && (BigInt(overwrite.allow) & VIEW_CHANNEL) !== 0n,
  );
  if (roles.length === 0) opened.delete(channel.id);
  else opened.set(channel.id, joined(roles.map((overwrite) => overwrite.id)));
}

function apply(
  store: Map<string, string>,
  opened: Map<string, string>,
  packet: GatewayDispatchPayload,
): void {
  switch (packet.t) {
    case 'GUILD_CREATE':
      if (!('unavailable' in packet.d && packet.d.unavailable)) {
        store.set(packet.d.id, joined(packet.d.channels.map((channel) => channel.id)));
        for (const channel of packet.d.channels) noteOverwrites(opened, channel);
      }
      return;
    case 'GUILD_DELETE':
      // An outage (unavailable) keeps the guild and its channels; a leave forgets them.
      if (!packet.d.unavailable) store.delete(packet.d.id);
      return;
    case 'CHANNEL_CREATE': {
      if (!('guild_id' in packet.d) || !packet.d.guild_id) return;
      noteOverwrites(opened, packet.d);
      const ids = store.get(packet.d.guild_id);
      if (ids !== undefined && !ids.includes(`,${packet.d.id},`))
        store.set(packet.d.guild_id, `${ids}${packet.d.id},`);
      return;
    }
    case 'CHANNEL_UPDATE':
      if ('guild_id' in packet.d && packet.d.guild_id) noteOverwrites(opened, packet.d);
      return;
    case 'CHANNEL_DELETE': {
      if (!('guild_id' in packet.d) || !packet.d.guild_id) return;
      opened.delete(packet.d.id);
      const ids = store.get(packet.d.guild_id);
      if (ids !== undefined) store.set(packet.d.guild_id, ids.replace(`,${packet.d.id},`, ','));
      return;
    }
    default:
      return;
  }
}

/** Starts listing the client's guilds' channels; call before it logs in. */
export function trackGuildChannels(client: Client): void {
  const store = storeOf(client);
  const opened = openedOf(client);
  client.on(Events.Raw, (packet: GatewayDispatchPayload) => apply(store, opened, packet));
}

/**
 * True when the gateway told this process the channel (known to be the guild's) has an
 * overwrite of the role allowing View Channel. False means "not known here": ask Discord.
 */
export function isKnownRoleViewAllowed(
  client: Client,
  guildId: string,
  channelId: string,
  roleId: string,
): boolean {
  if (!isKnownGuildChannel(client, guildId, channelId)) return false;
  return openedStores.get(client)?.get(channelId)?.includes(`,${roleId},`) ?? false;
}

/**
 * True when the channel is known to be one of the guild's own (the guild is in this process's
 * cache, its GUILD_CREATE listed the channel or a CHANNEL_CREATE added it). False means "not
 * known here": ask Discord.
 */
export function isKnownGuildChannel(client: Client, guildId: string, channelId: string): boolean {
  if (client.guilds.cache.get(guildId)?.available !== true) return false;
  return stores.get(client)?.get(guildId)?.includes(`,${channelId},`) ?? false;
}

/** Forgets a guild the client no longer holds (see presence/bot-guilds.ts). */
export function forgetGuildChannels(client: Client, guildId: string): void {
  stores.get(client)?.delete(guildId);
}
