import {
  type Client,
  Events,
  type GatewayDispatchPayload,
  GatewayIntentBits,
  type MessageReaction,
  type PartialMessageReaction,
  Partials,
  type PartialUser,
  type TextChannel,
  type User,
} from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SANDBOX_IDS } from '../src/index.ts';
import { nextPacket, readyClient, sandboxPerTest, waitFor } from './discordjs-helpers.ts';
import { control } from './helpers.ts';

const { sandbox, keep } = sandboxPerTest();

const { guilds, channels, users, emojis } = SANDBOX_IDS;

/** A bot as the worker runs it for reaction roles: reactions intent, partial messages and reactions. */
async function reactionsClient(): Promise<Client> {
  const client = await readyClient(sandbox(), undefined, {
    intents: [
      GatewayIntentBits.Guilds,
      GatewayIntentBits.GuildMembers,
      GatewayIntentBits.GuildMessages,
      GatewayIntentBits.GuildMessageReactions,
    ],
    partials: [Partials.Message, Partials.Channel, Partials.Reaction, Partials.User],
  });
  keep(client);
  return client;
}

type ReactionEvent = { reaction: MessageReaction | PartialMessageReaction; user: User | PartialUser };
function nextReaction(client: Client, event: Events.MessageReactionAdd | Events.MessageReactionRemove) {
  return waitFor<ReactionEvent>((listener) => {
    const handler = (reaction: ReactionEvent['reaction'], user: ReactionEvent['user']) =>
      listener({ reaction, user });
    // Both events hand the listener the same (reaction, user); the cast picks one overload.
    const name = event as Events.MessageReactionAdd;
    client.on(name, handler);
    return () => client.off(name, handler);
  });
}

function react(message: string, user: string, emoji: string, method: 'POST' | 'DELETE' = 'POST') {
  return control(sandbox(), method, '/reactions', {
    guild_id: guilds.station,
    channel_id: channels.roles,
    message_id: message,
    user_id: user,
    emoji,
  });
}

async function channelOf(client: Client): Promise<TextChannel> {
  return (await client.channels.fetch(channels.roles)) as TextChannel;
}

describe('reactions with discord.js', () => {
  it('emits messageReactionAdd and Remove for a member’s reactions on an uncached message', async () => {
    const poster = await reactionsClient();
    const posted = await (await channelOf(poster)).send('Pick a role');
    const bot = await reactionsClient();
    const added = nextReaction(bot, Events.MessageReactionAdd);
    const packet = nextPacket(bot, 'MESSAGE_REACTION_ADD');
    expect((await react(posted.id, users.nia, `rocket:${emojis.stationRocket}`)).status).toBe(200);
    const { reaction, user } = await added;
    expect(user.id).toBe(users.nia);
    expect(reaction.message.id).toBe(posted.id);
    expect(reaction.emoji.id).toBe(emojis.stationRocket);
    expect(reaction.emoji.name).toBe('rocket');
    expect(await packet).toMatchObject({
      user_id: users.nia,
      channel_id: channels.roles,
      message_id: posted.id,
      guild_id: guilds.station,
      message_author_id: SANDBOX_IDS.bot,
      emoji: { id: emojis.stationRocket, name: 'rocket', animated: false },
      burst: false,
      type: 0,
      member: { user: { id: users.nia }, roles: [SANDBOX_IDS.roles.stationCrew] },
    });

    const removed = nextReaction(bot, Events.MessageReactionRemove);
    await react(posted.id, users.nia, `rocket:${emojis.stationRocket}`, 'DELETE');
    const gone = await removed;
    expect(gone.user.id).toBe(users.nia);
    expect(gone.reaction.emoji.id).toBe(emojis.stationRocket);
  });

  it('reacts, removes a member’s reaction and clears them all through discord.js', async () => {
    const bot = await reactionsClient();
    const message = await (await channelOf(bot)).send('React here');
    // The bot's own reaction comes back to it as MESSAGE_REACTION_ADD, as on Discord.
    const own = nextPacket(bot, 'MESSAGE_REACTION_ADD', (d) => d.user_id === SANDBOX_IDS.bot);
    const reaction = await message.react('🔴');
    expect(reaction.emoji.name).toBe('🔴');
    expect(await own).toMatchObject({ emoji: { id: null, name: '🔴' }, message_id: message.id });

    const niaAdded = nextReaction(bot, Events.MessageReactionAdd);
    await react(message.id, users.nia, '🔴');
    await niaAdded;
    const fetched = await message.fetch(true);
    expect(fetched.reactions.cache.get('🔴')?.count).toBe(2);
    expect(fetched.reactions.cache.get('🔴')?.me).toBe(true);
    const reactors = await fetched.reactions.cache.get('🔴')?.users.fetch();
    expect([...(reactors?.keys() ?? [])]).toEqual([SANDBOX_IDS.bot, users.nia]);

    const removedPacket = nextPacket(bot, 'MESSAGE_REACTION_REMOVE');
    await fetched.reactions.cache.get('🔴')?.users.remove(users.nia);
    expect(await removedPacket).toMatchObject({ user_id: users.nia, emoji: { name: '🔴' } });

    // GUILD_CREATE carried the guild's emojis, so discord.js has them cached.
    const rocket = bot.guilds.cache.get(guilds.station)?.emojis.cache.get(emojis.stationRocket);
    expect(rocket?.name).toBe('rocket');
    await message.react(rocket ?? '');
    const emojiGone = nextPacket(bot, 'MESSAGE_REACTION_REMOVE_EMOJI');
    await (await message.fetch(true)).reactions.cache.get(emojis.stationRocket)?.remove();
    expect(await emojiGone).toMatchObject({ emoji: { id: emojis.stationRocket, name: 'rocket' } });

    const all = nextPacket(bot, 'MESSAGE_REACTION_REMOVE_ALL');
    await message.reactions.removeAll();
    expect(await all).toEqual({
      channel_id: channels.roles,
      message_id: message.id,
      guild_id: guilds.station,
    });
    expect((await message.fetch(true)).reactions.cache.size).toBe(0);

    // Discord's errors surface as DiscordAPIError codes.
    await expect(message.react(`<:ghost:${'9'.repeat(18)}>`)).rejects.toMatchObject({ code: 10014 });
  });

  it('sends reaction events only to sessions with the GuildMessageReactions intent', async () => {
    const without = await readyClient(sandbox());
    keep(without);
    const seen: string[] = [];
    without.on('raw', (packet: GatewayDispatchPayload) => {
      if (packet.t?.startsWith('MESSAGE_REACTION')) seen.push(packet.t);
    });
    const message = await (await channelOf(without)).send('No reactions for me');
    await react(message.id, users.nia, '🔴');
    await message.react('🟢');
    await message.reactions.removeAll();
    // A later event the session does get, so the reaction events had their chance to arrive.
    const created = nextPacket(without, 'MESSAGE_CREATE', (d) => d.content === 'after');
    await (await channelOf(without)).send('after');
    await created;
    expect(seen).toEqual([]);
  });
});
