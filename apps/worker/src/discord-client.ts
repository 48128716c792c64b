import {
  type CacheFactory,
  Client,
  Collection,
  GatewayCloseCodes,
  GatewayIntentBits,
  Options,
  Partials,
  type WebSocketOptions,
} from 'discord.js';
import { discordRestOptions } from './discord-rest.ts';
import type { WorkerConfig } from './env.ts';

/**
 * Gateway intents the product uses: guilds (presence in bot_guilds, roles, channels), members
 * (leavers, role holders), guild messages (XP counts messages; their content is not
 * needed, so the privileged MessageContent intent stays off), their reactions (reaction
 * roles) and voice states (voice XP counts time in voice; not privileged).
 */
export const WORKER_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.GuildMessageReactions,
  GatewayIntentBits.GuildVoiceStates,
] as const;

/** Discord's privileged intents by the names the Developer Portal's Bot page gives them. */
const PRIVILEGED_INTENT_NAMES: ReadonlyMap<GatewayIntentBits, string> = new Map([
  [GatewayIntentBits.GuildMembers, 'Server Members Intent'],
  [GatewayIntentBits.GuildPresences, 'Presence Intent'],
  [GatewayIntentBits.MessageContent, 'Message Content Intent'],
]);

/** The privileged intents this worker asks for, by their Developer Portal names. */
export const WORKER_PRIVILEGED_INTENTS: readonly string[] = WORKER_INTENTS.flatMap((intent) => {
  const name = PRIVILEGED_INTENT_NAMES.get(intent);
  return name ? [name] : [];
});

/**
 * The log line for Discord's close 4014 (Disallowed intent(s)): Discord does not say which
 * intent, so it names the privileged ones the worker asks for and where to turn them on.
 */
export function disallowedIntentsMessage(applicationId: string | null): string {
  const where = applicationId
    ? `https://discord.com/developers/applications/${applicationId}/bot`
    : 'https://discord.com/developers/applications (your application > Bot)';
  return `Discord refused the gateway connection (close ${GatewayCloseCodes.DisallowedIntents}, Disallowed intent(s)): the privileged intent ${WORKER_PRIVILEGED_INTENTS.join(', ')} is not enabled for this application; enable it under Privileged Gateway Intents at ${where}, then start the worker again.`;
}

const SWEEP_EVERY_SECONDS = 600;

/**
 * A cache that keeps nothing. discord.js makes one cache per manager, so per guild and per
 * channel; one shared instance of this (always empty, so sharing is safe) stands for every
 * cache the product never reads, instead of an empty Map each (about 230 bytes apiece, 70 of
 * them per guild of 20 channels).
 */
class KeepsNothing<K, V> extends Collection<K, V> {
  override set(): this {
    return this;
  }
}

/**
 * Managers whose cache is never read, so never kept. Channels are among them: discord.js
 * warns that dropping ChannelManager / GuildChannelManager "breaks functionality", namely its
 * events for an uncached channel (messageCreate, messageReactionAdd, channelDelete...) are not
 * emitted and `interaction.channel` is null. The worker reads those as raw packets, answers
 * interactions through their token, and knows which guild a channel is in from
 * `guild-channels.ts` (ids only, about 0.4 KiB per guild instead of 24 KiB of channel objects).
 */
const NOT_KEPT = new Set([
  'ChannelManager',
  'GuildChannelManager',
  'MessageManager',
  'PresenceManager',
  'ReactionManager',
  'ReactionUserManager',
  'ThreadManager',
  'ThreadMemberManager',
  'VoiceStateManager',
  'StageInstanceManager',
  'GuildEmojiManager',
  'GuildStickerManager',
  'GuildSoundboardSoundManager',
  'GuildInviteManager',
  'GuildScheduledEventManager',
  'GuildBanManager',
  'AutoModerationRuleManager',
  'ApplicationCommandManager',
  'ApplicationCommandPermissionsManager',
  'EntitlementManager',
  'SubscriptionManager',
  'PollAnswerVoterManager',
]);

/**
 * The client caches only what handlers read from memory: guilds, roles and the bot's own
 * member and user (role positions and rights on a click). No channel, message or other
 * member or user is kept: a click brings the member with it (a colour swap reads those roles,
 * see assign.ts), and a channel's guild is known from `guild-channels.ts`, so GUILD_CREATE's
 * member and channel lists cost nothing once handled, and memory grows with guilds' roles
 * only. `pnpm bench worker-memory` measures it (guilds of 20 channels and 30 roles, 2026-11-26):
 * 15.8 KiB of heap per guild, 39.6 KiB while channels were kept; the roles are most of it.
 */
export function createDiscordClient(
  config: WorkerConfig,
  /** Spaces IDENTIFYs across processes (identify-throttler.ts); unset: discord.js's, per process. */
  buildIdentifyThrottler?: WebSocketOptions['buildIdentifyThrottler'],
): Client {
  // The bot's own member and user back role-position checks, so sweeps keep them.
  const sweepNonSelf = () => (value: { id: string }) => value.id !== client.user?.id;
  const nothing = new KeepsNothing<unknown, unknown>();
  const limited = Options.cacheWithLimits({
    GuildMemberManager: {
      maxSize: 0,
      keepOverLimit: (member) => member.id === member.client.user.id,
    },
    UserManager: {
      maxSize: 0,
      keepOverLimit: (user) => user.id === user.client.user.id,
    },
  });
  const client: Client = new Client({
    intents: [...WORKER_INTENTS],
    rest: discordRestOptions(config),
    // Most members are not cached; without this partial a leave of an uncached member is dropped.
    partials: [Partials.GuildMember],
    ...(buildIdentifyThrottler ? { ws: { buildIdentifyThrottler } } : {}),
    ...(config.shards ? { shards: config.shards.ids, shardCount: config.shards.count } : {}),
    makeCache: ((managerType, holds, manager) =>
      NOT_KEPT.has(manager.name) || NOT_KEPT.has(managerType.name)
        ? nothing
        : limited(managerType, holds, manager)) as CacheFactory,
    sweepers: {
      ...Options.DefaultSweeperSettings,
      guildMembers: { interval: SWEEP_EVERY_SECONDS, filter: sweepNonSelf },
      users: { interval: SWEEP_EVERY_SECONDS, filter: sweepNonSelf },
    },
  });
  return client;
}
