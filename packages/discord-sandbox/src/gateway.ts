/**
 * The sandbox's bot gateway: HELLO, IDENTIFY (with Discord's session start limits) and the
 * READY and GUILD_CREATEs after it, RESUME and its replay, heartbeats, and each state change
 * dispatched to the sessions that want it. Why one file: every step of a connection's life reads
 * and changes the one map of sessions this class keeps; split, each part would need the others'
 * private state.
 */
import { randomBytes } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { GatewayCloseCodes, GatewayDispatchEvents, GatewayOpcodes } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import { type WebSocket, WebSocketServer } from 'ws';
import type { SandboxContext } from './context.ts';
import type { SandboxGuild } from './fixture.ts';
import {
  botTokenOk,
  checkIdentify,
  type IdentifyData,
  type ResumeData,
  readyPayload,
} from './gateway-identify.ts';
import { GatewaySession, shardOf } from './gateway-session.ts';
import { replayGuildsAfterReset } from './mutations.ts';
import { guildCreatePayload, type MemberRequest, memberChunkPayload } from './payloads.ts';
import type { SandboxDispatch } from './state.ts';

export const HEARTBEAT_INTERVAL = 41250;
/** A connection that stays silent this long after HELLO or its last heartbeat is a zombie. */
const HEARTBEAT_GRACE_MS = HEARTBEAT_INTERVAL + 20_000;
/**
 * GUILD_CREATEs sent in one turn of the event loop after a READY. A test world's few guilds all go
 * in the first turn, right after the READY, as before; a shard of 12,500 (the 50,000-guild scale
 * bench) yields between turns instead of holding the sandbox for tens of seconds.
 */
const GUILD_CREATES_PER_TURN = 200;

export interface GatewayPresence {
  online: boolean;
  sessions: Array<{
    session_id: string;
    shard: [number, number];
    intents: number;
    connected: boolean;
    seq: number;
    resumes: number;
    replayed_events: number;
  }>;
}

/** Close codes after which Discord forgets the session: a RESUME gets INVALID_SESSION. */
const SESSION_ENDING_CLOSE_CODES: ReadonlySet<number> = new Set([
  GatewayCloseCodes.InvalidSeq,
  GatewayCloseCodes.SessionTimedOut,
]);

interface GatewayPayload {
  op?: number;
  d?: unknown;
}

/** The bot gateway at `/gateway` (JSON encoding, no compression), on the Fastify HTTP server. */
export class SandboxGateway {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly sessions = new Map<string, GatewaySession>();
  /** While held, new connections wait for HELLO: lets a test act during a disconnect. */
  private held: WebSocket[] | null = null;
  private readonly heartbeatDeadlines = new WeakMap<WebSocket, NodeJS.Timeout>();

  constructor(
    app: FastifyInstance,
    private readonly ctx: SandboxContext,
  ) {
    app.server.on('upgrade', (req: IncomingMessage, socket: Duplex, head: Buffer) => {
      const url = new URL(req.url ?? '/', 'http://sandbox');
      if (url.pathname !== '/gateway') {
        socket.destroy();
        return;
      }
      this.wss.handleUpgrade(req, socket, head, (ws) => this.accept(ws, url.searchParams, req.headers.host));
    });
    ctx.state.events.on('dispatch', (event: SandboxDispatch) => {
      const now = Date.now();
      for (const session of this.sessions.values()) {
        if (session.expired(now)) this.sessions.delete(session.id);
        else if (session.wants(event)) session.dispatch(event.t, event.d);
      }
    });
    ctx.state.events.on('reset', (before: string[]) => replayGuildsAfterReset(ctx.state, before));
  }

  connectedSessions(): number {
    return [...this.sessions.values()].filter((s) => s.connected).length;
  }

  presence(): GatewayPresence {
    const now = Date.now();
    for (const session of this.sessions.values()) if (session.expired(now)) this.sessions.delete(session.id);
    const sessions = [...this.sessions.values()].map((s) => ({
      session_id: s.id,
      shard: s.shard,
      intents: s.intents,
      connected: s.connected,
      seq: s.seq,
      resumes: s.resumes,
      replayed_events: s.replayed,
    }));
    return { online: sessions.some((s) => s.connected), sessions };
  }

  /**
   * Drops every bot connection. Sessions stay resumable, except after a code that ends the
   * session on Discord (4007, 4009): the bot must IDENTIFY again and what it missed meanwhile is
   * lost. `hold` delays HELLO until `release()`.
   */
  closeConnections(code: number, hold: boolean): number {
    if (hold && this.held === null) this.held = [];
    const endsSession = SESSION_ENDING_CLOSE_CODES.has(code);
    let closed = 0;
    for (const session of [...this.sessions.values()]) {
      if (session.connected) closed += 1;
      session.close(code);
      if (endsSession) this.sessions.delete(session.id);
    }
    return closed;
  }

  release(): void {
    const waiting = this.held ?? [];
    this.held = null;
    for (const ws of waiting) this.hello(ws);
  }

  async close(): Promise<void> {
    for (const session of this.sessions.values()) session.close(1001);
    for (const client of this.wss.clients) client.terminate();
    await new Promise<void>((resolve) => this.wss.close(() => resolve()));
  }

  private hello(ws: WebSocket): void {
    if (ws.readyState !== ws.OPEN) return;
    ws.send(JSON.stringify({ op: GatewayOpcodes.Hello, d: { heartbeat_interval: HEARTBEAT_INTERVAL } }));
    this.expectHeartbeat(ws);
  }

  private expectHeartbeat(ws: WebSocket): void {
    clearTimeout(this.heartbeatDeadlines.get(ws));
    const timer = setTimeout(
      () => ws.close(GatewayCloseCodes.SessionTimedOut, 'No heartbeat'),
      HEARTBEAT_GRACE_MS,
    );
    timer.unref();
    this.heartbeatDeadlines.set(ws, timer);
  }

  private accept(ws: WebSocket, query: URLSearchParams, host: string | undefined): void {
    const version = query.get('v');
    if (version !== null && version !== '10' && version !== '9') {
      ws.close(GatewayCloseCodes.InvalidAPIVersion, 'Invalid API version');
      return;
    }
    if ((query.get('encoding') ?? 'json') !== 'json') {
      ws.close(GatewayCloseCodes.DecodeError, 'Only JSON encoding is supported');
      return;
    }
    let session: GatewaySession | null = null;
    ws.on('message', (raw) => {
      let payload: GatewayPayload;
      try {
        payload = JSON.parse(raw.toString()) as GatewayPayload;
      } catch {
        ws.close(GatewayCloseCodes.DecodeError, 'Error while decoding payload');
        return;
      }
      session = this.onPayload(ws, session, payload, host);
    });
    ws.on('close', (code) => {
      clearTimeout(this.heartbeatDeadlines.get(ws));
      // A client that closes normally ends its session; anything else may resume.
      if (session && (code === 1000 || code === 1001) && session.socket === ws)
        this.sessions.delete(session.id);
      if (session?.socket === ws) session.socket = null;
    });
    if (this.held) this.held.push(ws);
    else this.hello(ws);
  }

  private onPayload(
    ws: WebSocket,
    session: GatewaySession | null,
    payload: GatewayPayload,
    host: string | undefined,
  ): GatewaySession | null {
    const send = (p: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(p));
    switch (payload.op) {
      case GatewayOpcodes.Heartbeat:
        this.expectHeartbeat(ws);
        send({ op: GatewayOpcodes.HeartbeatAck });
        return session;
      case GatewayOpcodes.Identify:
        if (session) {
          ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated');
          return session;
        }
        return this.identify(ws, payload.d as IdentifyData, host);
      case GatewayOpcodes.Resume:
        if (session) {
          ws.close(GatewayCloseCodes.AlreadyAuthenticated, 'Already authenticated');
          return session;
        }
        return this.resume(ws, payload.d as ResumeData);
      case GatewayOpcodes.RequestGuildMembers:
        if (!session) {
          ws.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated');
        } else {
          const chunk = memberChunkPayload(this.ctx.state, payload.d as MemberRequest);
          if (chunk) session.dispatch(GatewayDispatchEvents.GuildMembersChunk, chunk);
        }
        return session;
      case GatewayOpcodes.PresenceUpdate:
      case GatewayOpcodes.VoiceStateUpdate:
        if (!session) ws.close(GatewayCloseCodes.NotAuthenticated, 'Not authenticated');
        return session;
      default:
        ws.close(GatewayCloseCodes.UnknownOpcode, 'Unknown opcode');
        return session;
    }
  }

  private identify(
    ws: WebSocket,
    d: IdentifyData | undefined,
    host: string | undefined,
  ): GatewaySession | null {
    const { state } = this.ctx;
    const checked = checkIdentify(state, d);
    if ('code' in checked) {
      ws.close(checked.code, checked.reason);
      return null;
    }
    const { shard, intents } = checked;
    // Session start limits, checked once the IDENTIFY is otherwise valid (see session-limits.ts).
    const outcome = state.sessionLimits.take(state.now(), shard);
    if (outcome === 'refused') {
      if (ws.readyState === ws.OPEN) ws.send(JSON.stringify({ op: GatewayOpcodes.InvalidSession, d: false }));
      return null;
    }
    if (outcome === 'exhausted') {
      this.exhaustSessionStarts(ws);
      return null;
    }
    const session = new GatewaySession(randomBytes(16).toString('hex'), shard, intents, state.application.id);
    session.socket = ws;
    this.sessions.set(session.id, session);
    const guilds = [...state.guilds.values()].filter(
      (g) => state.botIsIn(g) && shardOf(g.id, shard[1]) === shard[0],
    );
    const ready = readyPayload(state, session.id, this.ctx.gatewayUrl(host), shard, guilds);
    session.dispatch(GatewayDispatchEvents.Ready, ready);
    this.sendGuildCreates(session, guilds, 0);
    return session;
  }

  /**
   * The shard's GUILD_CREATEs after READY, lazily as Discord sends them: GUILD_CREATES_PER_TURN
   * in one turn of the event loop, the rest in later turns, so a shard of tens of thousands of
   * guilds does not hold the sandbox (other clients' handshakes, REST) for the whole of it. Each
   * is built when sent; a guild the bot left meanwhile is skipped, and a session gone gets no more.
   */
  private sendGuildCreates(session: GatewaySession, guilds: readonly SandboxGuild[], from: number): void {
    const { state } = this.ctx;
    const until = Math.min(guilds.length, from + GUILD_CREATES_PER_TURN);
    for (const guild of guilds.slice(from, until)) {
      if (state.guilds.get(guild.id) === guild && state.botIsIn(guild))
        session.dispatch(GatewayDispatchEvents.GuildCreate, guildCreatePayload(state, guild));
    }
    if (until === guilds.length) return;
    setImmediate(() => {
      if (this.sessions.get(session.id) === session) this.sendGuildCreates(session, guilds, until);
    });
  }

  /**
   * An IDENTIFY with no session starts left: Discord terminates every active session of the
   * bot and resets its token, so this one and every later one fail authentication (4004) until
   * the owner puts the new token in (here: `POST /_sandbox/reset`).
   */
  private exhaustSessionStarts(ws: WebSocket): void {
    this.ctx.state.application.bot_token = `reset-${randomBytes(24).toString('hex')}`;
    for (const session of [...this.sessions.values()]) {
      session.close(GatewayCloseCodes.AuthenticationFailed);
      this.sessions.delete(session.id);
    }
    ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
  }

  private resume(ws: WebSocket, d: ResumeData | undefined): GatewaySession | null {
    if (!botTokenOk(this.ctx.state, d?.token)) {
      ws.close(GatewayCloseCodes.AuthenticationFailed, 'Authentication failed');
      return null;
    }
    const session = d?.session_id ? this.sessions.get(d.session_id) : undefined;
    const send = (p: object) => ws.readyState === ws.OPEN && ws.send(JSON.stringify(p));
    if (!session) {
      send({ op: GatewayOpcodes.InvalidSession, d: false });
      return null;
    }
    const seq = Number(d?.seq ?? 0);
    if (seq > session.seq) {
      ws.close(GatewayCloseCodes.InvalidSeq, 'Invalid seq');
      return null;
    }
    if (session.socket && session.socket !== ws) session.close(GatewayCloseCodes.SessionTimedOut);
    session.socket = ws;
    session.resumes += 1;
    if (!session.replayAfter(seq)) {
      session.socket = null;
      this.sessions.delete(session.id);
      send({ op: GatewayOpcodes.InvalidSession, d: false });
      return null;
    }
    session.dispatch(GatewayDispatchEvents.Resumed, {});
    return session;
  }
}
