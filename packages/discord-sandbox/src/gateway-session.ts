import {
  GatewayCloseCodes,
  GatewayDispatchEvents,
  GatewayIntentBits,
  GatewayOpcodes,
} from 'discord-api-types/v10';
import type { WebSocket } from 'ws';
import type { SandboxDispatch } from './state.ts';

const REPLAY_LIMIT = 5000;
/** How long a dropped session may still RESUME; after that it is forgotten (as on Discord). */
export const RESUME_WINDOW_MS = 3 * 60 * 1000;

/** Which intent a dispatch needs; events not listed are always sent. */
const EVENT_INTENTS: Partial<Record<GatewayDispatchEvents, number>> = {
  [GatewayDispatchEvents.GuildCreate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildDelete]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildUpdate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildRoleCreate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildRoleUpdate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildRoleDelete]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.ChannelCreate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.ChannelUpdate]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.ChannelDelete]: GatewayIntentBits.Guilds,
  [GatewayDispatchEvents.GuildMemberAdd]: GatewayIntentBits.GuildMembers,
  [GatewayDispatchEvents.GuildMemberUpdate]: GatewayIntentBits.GuildMembers,
  [GatewayDispatchEvents.GuildMemberRemove]: GatewayIntentBits.GuildMembers,
  [GatewayDispatchEvents.MessageCreate]: GatewayIntentBits.GuildMessages,
  [GatewayDispatchEvents.MessageUpdate]: GatewayIntentBits.GuildMessages,
  [GatewayDispatchEvents.MessageDelete]: GatewayIntentBits.GuildMessages,
  [GatewayDispatchEvents.MessageDeleteBulk]: GatewayIntentBits.GuildMessages,
  [GatewayDispatchEvents.MessageReactionAdd]: GatewayIntentBits.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemove]: GatewayIntentBits.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemoveAll]: GatewayIntentBits.GuildMessageReactions,
  [GatewayDispatchEvents.MessageReactionRemoveEmoji]: GatewayIntentBits.GuildMessageReactions,
  [GatewayDispatchEvents.VoiceStateUpdate]: GatewayIntentBits.GuildVoiceStates,
};

/** The shard a guild belongs to, Discord's formula. */
export function shardOf(guildId: string, shardCount: number): number {
  return Number((BigInt(guildId) >> 22n) % BigInt(shardCount));
}

interface SentDispatch {
  s: number;
  t: GatewayDispatchEvents;
  d: unknown;
}

/** One bot gateway session: survives its socket so RESUME can replay what it missed. */
export class GatewaySession {
  seq = 0;
  private current: WebSocket | null = null;
  /** When the session last lost its socket; null while attached. */
  private detachedAt: number | null = Date.now();
  resumes = 0;
  replayed = 0;
  private readonly sent: SentDispatch[] = [];

  constructor(
    readonly id: string,
    readonly shard: [number, number],
    readonly intents: number,
    private readonly botId: string,
  ) {}

  get socket(): WebSocket | null {
    return this.current;
  }

  set socket(ws: WebSocket | null) {
    this.current = ws;
    this.detachedAt = ws ? null : Date.now();
  }

  /** Detached for longer than the resume window. */
  expired(now: number): boolean {
    return this.detachedAt !== null && now - this.detachedAt > RESUME_WINDOW_MS;
  }

  get connected(): boolean {
    return this.socket !== null && this.socket.readyState === this.socket.OPEN;
  }

  wants(event: SandboxDispatch): boolean {
    if (event.guildId !== null && shardOf(event.guildId, this.shard[1]) !== this.shard[0]) return false;
    const intent = EVENT_INTENTS[event.t];
    return intent === undefined || (this.intents & intent) !== 0;
  }

  /** Numbers the event, keeps it for replay and sends it when connected. */
  dispatch(t: GatewayDispatchEvents, d: unknown): void {
    this.seq += 1;
    const entry: SentDispatch = { s: this.seq, t, d: this.shape(t, d) };
    this.sent.push(entry);
    if (this.sent.length > REPLAY_LIMIT) this.sent.shift();
    if (this.connected) this.send({ op: GatewayOpcodes.Dispatch, ...entry });
  }

  /** Re-sends everything after `seq`; false when the buffer no longer reaches back that far. */
  replayAfter(seq: number): boolean {
    const first = this.sent[0];
    if (first && first.s > seq + 1) return false;
    for (const entry of this.sent) {
      if (entry.s > seq) {
        this.send({ op: GatewayOpcodes.Dispatch, ...entry });
        this.replayed += 1;
      }
    }
    return true;
  }

  send(payload: object): void {
    if (this.connected) this.socket?.send(JSON.stringify(payload));
  }

  close(code: number = GatewayCloseCodes.UnknownError): void {
    const socket = this.socket;
    this.socket = null;
    socket?.close(code, 'closed by the sandbox');
  }

  /** Without MESSAGE_CONTENT, Discord blanks other people's message content. */
  private shape(t: GatewayDispatchEvents, d: unknown): unknown {
    if (t !== GatewayDispatchEvents.MessageCreate && t !== GatewayDispatchEvents.MessageUpdate) return d;
    if ((this.intents & GatewayIntentBits.MessageContent) !== 0) return d;
    const message = d as { author?: { id?: string }; mentions?: Array<{ id: string }> };
    if (message.author?.id === this.botId || message.mentions?.some((u) => u.id === this.botId)) return d;
    return { ...message, content: '', embeds: [], attachments: [], components: [] };
  }
}
