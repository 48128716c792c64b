/**
 * The mutable world behind one sandbox server; its records are declared in state-records.ts.
 * Why one file: every map of the world is loaded, reset and dumped together here.
 */
import { EventEmitter } from 'node:events';
import {
  type APIApplicationCommand,
  type APIGuildOnboarding,
  type APIMessage,
  type APIUser,
  type GatewayDispatchEvents,
  GuildOnboardingMode,
} from 'discord-api-types/v10';
import type { SandboxApplication, SandboxChannel, SandboxFixture, SandboxGuild } from './fixture.ts';
import { GlobalRateLimit, InvalidRequestCount, RouteRateLimits } from './global-limit.ts';
import { RoleConnectionStore } from './role-connection-store.ts';
import {
  DISCORD_IDENTIFY_INTERVAL_MS,
  DISCORD_SESSION_STARTS_PER_DAY,
  SessionStartLimits,
} from './session-limits.ts';
import type {
  AccessGrant,
  AuthorizationCode,
  DumpedMessage,
  DumpedReaction,
  Fault,
  InteractionRecord,
  ReactionRecord,
  RememberedNonce,
  RestRequestRecord,
  SandboxDispatch,
  SandboxDmChannel,
  SandboxStateDump,
  StoredAttachment,
} from './state-records.ts';

export type {
  AccessGrant,
  AuthorizationCode,
  DumpedMessage,
  DumpedReaction,
  Fault,
  InteractionRecord,
  ReactionEmoji,
  ReactionRecord,
  RememberedNonce,
  RestRequestRecord,
  SandboxDispatch,
  SandboxDmChannel,
  SandboxStateDump,
  StoredAttachment,
} from './state-records.ts';

const DISCORD_EPOCH = 1420070400000n;

const ATTACHMENT_BYTES_KEPT = 256 * 1024 * 1024;

const REQUEST_LOG_LIMIT = 2000;

/** The mutable world behind one sandbox server. Reset restores the fixture. */
export class SandboxState {
  application!: SandboxApplication;
  users = new Map<string, APIUser>();
  guilds = new Map<string, SandboxGuild>();
  messages = new Map<string, APIMessage[]>();
  /** The nonces messages were created with, by author and nonce, oldest first (see message-nonce.ts). */
  messageNonces = new Map<string, RememberedNonce>();
  /** Each message's reactions by message id, in the order their emojis were first used. */
  reactions = new Map<string, ReactionRecord[]>();
  /** Who blocked whom (user id -> the ids they blocked): a blocked user's reactions are refused. */
  blocks = new Map<string, Set<string>>();
  /** The bot's DM channels by channel id (one per recipient, as Discord keeps them). */
  dmChannels = new Map<string, SandboxDmChannel>();
  /** Users who accept no DMs from the bot: posting in their DM answers 403 50007. */
  dmRefusals = new Set<string>();
  codes = new Map<string, AuthorizationCode>();
  accessTokens = new Map<string, AccessGrant>();
  refreshTokens = new Map<string, AccessGrant>();
  /** Linked Roles: the application's metadata and each user's role connection. */
  readonly roleConnections = new RoleConnectionStore();
  faults: Fault[] = [];
  interactions = new Map<string, InteractionRecord>();
  interactionsByToken = new Map<string, InteractionRecord>();
  /** The last REST calls, so a test can tell what the bot asked Discord (and what it did not). */
  requests: RestRequestRecord[] = [];
  private requestSeq = 0;
  globalCommands: APIApplicationCommand[] = [];
  guildCommands = new Map<string, APIApplicationCommand[]>();
  /** Each guild's onboarding once the bot has set it; a guild without an entry has Discord's default. */
  onboarding = new Map<string, APIGuildOnboarding>();
  /** Milliseconds added to the wall clock, so tests can expire codes and tokens. */
  clockOffsetMs = 0;
  /**
   * Uploaded files by attachment id, oldest first, served by the CDN routes. At most
   * ATTACHMENT_BYTES_KEPT in all: past that the oldest go (their URLs then answer 404), so a
   * benchmark posting thousands of images does not grow the sandbox without end.
   */
  private attachmentFiles = new Map<string, StoredAttachment>();
  private attachmentBytes = 0;
  /** Discord's global limit on the bot token (off unless configured); a reset restores it. */
  readonly globalLimit: GlobalRateLimit;
  /** Discord's per-route buckets (enforced only when switched on); a reset restores the setting. */
  readonly routeLimits: RouteRateLimits;
  /** 401/403/429 answers to bot-token requests in the last 10 minutes (Discord's invalid requests). */
  readonly invalidRequests = new InvalidRequestCount();
  /** Discord's session start limits (max_concurrency per 5 s, 1000 a day); a reset restores them. */
  readonly sessionLimits: SessionStartLimits;
  readonly events = new EventEmitter();
  private sequence = 0n;
  private lastMs = 0n;

  constructor(
    private readonly fixture: SandboxFixture,
    options: {
      globalRateLimit?: number | null;
      routeRateLimits?: boolean;
      channelMessageLimit?: boolean;
      maxConcurrency?: number;
      identifyIntervalMs?: number;
    } = {},
  ) {
    this.events.setMaxListeners(0);
    this.globalLimit = new GlobalRateLimit(options.globalRateLimit ?? null);
    this.routeLimits = new RouteRateLimits(options.routeRateLimits ?? false, options.channelMessageLimit);
    this.sessionLimits = new SessionStartLimits({
      maxConcurrency: options.maxConcurrency ?? fixture.application.max_concurrency ?? 1,
      identifyIntervalMs: options.identifyIntervalMs ?? DISCORD_IDENTIFY_INTERVAL_MS,
      total: DISCORD_SESSION_STARTS_PER_DAY,
    });
    this.load();
  }

  private load(): void {
    const copy = structuredClone(this.fixture);
    this.application = copy.application;
    this.users = new Map(copy.users.map((u) => [u.id, u]));
    this.guilds = new Map(copy.guilds.map((g) => [g.id, g]));
    this.messages = new Map();
    for (const g of copy.guilds) for (const c of g.channels) this.messages.set(c.id, []);
    this.messageNonces.clear();
    this.reactions.clear();
    this.blocks.clear();
    this.dmChannels.clear();
    this.dmRefusals = new Set(copy.dm_refusals ?? []);
    this.codes.clear();
    this.accessTokens.clear();
    this.refreshTokens.clear();
    this.roleConnections.clear();
    this.faults = [];
    this.interactions.clear();
    this.interactionsByToken.clear();
    this.requests = [];
    this.globalCommands = [];
    this.guildCommands.clear();
    this.onboarding.clear();
    this.attachmentFiles.clear();
    this.attachmentBytes = 0;
    this.clockOffsetMs = 0;
    this.globalLimit.restore();
    this.routeLimits.restore();
    this.invalidRequests.clear();
    this.sessionLimits.restore();
  }

  /** Restores the fixture; listeners get the ids of the guilds the bot was in before. */
  reset(): void {
    const botGuildsBefore = [...this.guilds.values()].filter((g) => this.botIsIn(g)).map((g) => g.id);
    this.load();
    this.events.emit('reset', botGuildsBefore);
  }

  now(): number {
    return Date.now() + this.clockOffsetMs;
  }

  /** The creation time (ms since 1970) a snowflake carries. */
  static timeOf(snowflake: string): number {
    return Number((BigInt(snowflake) >> 22n) + DISCORD_EPOCH);
  }

  /** A fresh snowflake carrying the current time, like Discord's. */
  snowflake(): string {
    const ms = BigInt(this.now()) - DISCORD_EPOCH;
    if (ms !== this.lastMs) {
      this.lastMs = ms;
      this.sequence = 0n;
    }
    this.sequence = (this.sequence + 1n) & 0xfffn;
    return ((ms << 22n) | (1n << 17n) | this.sequence).toString();
  }

  keepAttachment(id: string, file: StoredAttachment): void {
    this.attachmentFiles.set(id, file);
    this.attachmentBytes += file.bytes.length;
    for (const [oldId, old] of this.attachmentFiles) {
      if (this.attachmentBytes <= ATTACHMENT_BYTES_KEPT) break;
      this.attachmentFiles.delete(oldId);
      this.attachmentBytes -= old.bytes.length;
    }
  }

  attachmentFile(id: string): StoredAttachment | undefined {
    return this.attachmentFiles.get(id);
  }

  /** Forgets the files of attachments a message no longer has (edited away or deleted). */
  dropAttachments(ids: readonly string[]): void {
    for (const id of ids) {
      const file = this.attachmentFiles.get(id);
      if (!file) continue;
      this.attachmentFiles.delete(id);
      this.attachmentBytes -= file.bytes.length;
    }
  }

  recordRequest(method: string, path: string, status: number): void {
    this.requestSeq += 1;
    this.requests.push({
      seq: this.requestSeq,
      method,
      path,
      status,
      at: new Date(this.now()).toISOString(),
    });
    if (this.requests.length > REQUEST_LOG_LIMIT) this.requests.shift();
  }

  dispatch(t: GatewayDispatchEvents, d: unknown, guildId: string | null): void {
    const event: SandboxDispatch = { t, d, guildId };
    this.events.emit('dispatch', event);
  }

  get botUser(): APIUser {
    const bot = this.users.get(this.application.id);
    if (!bot) throw new Error('The fixture has no bot user with the application id');
    return bot;
  }

  guildOfChannel(channelId: string): { guild: SandboxGuild; channel: SandboxChannel } | undefined {
    for (const guild of this.guilds.values()) {
      const channel = guild.channels.find((c) => c.id === channelId);
      if (channel) return { guild, channel };
    }
    return undefined;
  }

  /** The message's reactions (a fresh empty list when it has none). */
  reactionsOf(messageId: string): ReactionRecord[] {
    return this.reactions.get(messageId) ?? [];
  }

  /** The message's reactions as `GET /_sandbox/state` shows them: Discord's fields and `user_ids`. */
  shownReactions(message: APIMessage): DumpedReaction[] {
    const records = this.reactionsOf(message.id);
    return (message.reactions ?? []).map((reaction, i) => ({
      ...reaction,
      user_ids: [...(records[i]?.user_ids ?? [])],
    }));
  }

  private dumpMessage(message: APIMessage): DumpedMessage {
    const { reactions, ...rest } = message;
    return reactions ? { ...rest, reactions: this.shownReactions(message) } : rest;
  }

  /** The guild's onboarding as `GET /guilds/:id/onboarding` shows it (a copy is not made). */
  onboardingOf(guildId: string): APIGuildOnboarding {
    return (
      this.onboarding.get(guildId) ?? {
        guild_id: guildId,
        prompts: [],
        default_channel_ids: [],
        enabled: false,
        mode: GuildOnboardingMode.OnboardingDefault,
      }
    );
  }

  botIsIn(guild: SandboxGuild): boolean {
    return guild.members.some((m) => m.user_id === this.application.id);
  }

  dump(connectedSessions: number): SandboxStateDump {
    return structuredClone({
      application: { id: this.application.id, name: this.application.name },
      users: [...this.users.values()],
      guilds: [...this.guilds.values()].map((g) => ({
        ...g,
        channels: g.channels.map((c) => ({
          ...c,
          messages: (this.messages.get(c.id) ?? []).map((m) => this.dumpMessage(m)),
        })),
        onboarding: this.onboardingOf(g.id),
      })),
      interactions: [...this.interactions.values()],
      commands: { global: this.globalCommands, guilds: Object.fromEntries(this.guildCommands) },
      gateway: { connected_sessions: connectedSessions },
      dm_channels: [...this.dmChannels.values()].map((dm) => ({
        id: dm.id,
        recipient_id: dm.recipient_id,
        messages: (this.messages.get(dm.id) ?? []).map((m) => this.dumpMessage(m)),
      })),
      role_connections: this.roleConnections.dump(),
    });
  }
}
