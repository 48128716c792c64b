import {
  Client,
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
 * needed, so the privileged MessageContent intent stays off) and their reactions (reaction
 * roles).
 */
export const WORKER_INTENTS = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildMessages,
  GatewayIntentBits.GuildMessageReactions,
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
 * The client caches only what handlers read from memory: guilds, channels, roles and the
 * bot's own member and user (to compare role positions). No other member or user is kept:
 * a click brings the member with it (a colour swap reads those roles, see assign.ts), so
 * GUILD_CREATE's member lists and member events cost nothing once handled, and memory grows
 * with guilds' roles and channels only. `pnpm bench worker-memory` measures it.
 */
export function createDiscordClient(
  config: WorkerConfig,
  /** Spaces IDENTIFYs across processes (identify-throttler.ts); unset: discord.js's, per process. */
  buildIdentifyThrottler?: WebSocketOptions['buildIdentifyThrottler'],
): Client {
  // The bot's own member and user back role-position checks, so sweeps keep them.
  const sweepNonSelf = () => (value: { id: string }) => value.id !== client.user?.id;
  const client: Client = new Client({
    intents: [...WORKER_INTENTS],
    rest: discordRestOptions(config),
    // Most members are not cached; without this partial a leave of an uncached member is dropped.
    partials: [Partials.GuildMember],
    ...(buildIdentifyThrottler ? { ws: { buildIdentifyThrottler } } : {}),
    ...(config.shards ? { shards: config.shards.ids, shardCount: config.shards.count } : {}),
    makeCache: Options.cacheWithLimits({
      ...Options.DefaultMakeCacheSettings,
      MessageManager: 0,
      PresenceManager: 0,
      ReactionManager: 0,
      ReactionUserManager: 0,
      ThreadManager: 0,
      ThreadMemberManager: 0,
      VoiceStateManager: 0,
      StageInstanceManager: 0,
      GuildEmojiManager: 0,
      GuildStickerManager: 0,
      GuildInviteManager: 0,
      GuildScheduledEventManager: 0,
      GuildBanManager: 0,
      AutoModerationRuleManager: 0,
      ApplicationCommandManager: 0,
      GuildMemberManager: {
        maxSize: 0,
        keepOverLimit: (member) => member.id === member.client.user.id,
      },
      UserManager: {
        maxSize: 0,
        keepOverLimit: (user) => user.id === user.client.user.id,
      },
    }),
    sweepers: {
      ...Options.DefaultSweeperSettings,
      guildMembers: { interval: SWEEP_EVERY_SECONDS, filter: sweepNonSelf },
      users: { interval: SWEEP_EVERY_SECONDS, filter: sweepNonSelf },
    },
  });
  return client;
}
