import { DEFAULT_WELCOME_SETTINGS, type WelcomeSettings } from '@spacecadet/contract';
import { vi } from 'vitest';
import { storeSession } from '../src/lib/session.ts';

export type FakeRoute = (request: {
  method: string;
  path: string;
  /** A JSON body parsed; any other body (a CSV file) as its text. */
  body: unknown;
  /** The request's Content-Type, when it sent one. */
  type?: string | undefined;
  /** Whether it carried an Authorization header. */
  authorized?: boolean;
}) =>
  | { status: number; body?: unknown; text?: string; bytes?: Uint8Array<ArrayBuffer>; type?: string }
  | undefined;

function headerOf(init: RequestInit | undefined, name: string): string | undefined {
  const headers = (init?.headers ?? {}) as Record<string, string>;
  return Object.entries(headers).find(([key]) => key.toLowerCase() === name)?.[1];
}

function bodyOf(raw: unknown, type: string | undefined): unknown {
  if (typeof raw !== 'string') return undefined;
  if (type && !/json/.test(type)) return raw;
  return JSON.parse(raw) as unknown;
}

/**
 * Fakes the API at the network layer: `fetch` answers from the handler. What it leaves out is a
 * 404, except what the dashboard's frame asks for on every page unless the handler answers it:
 * the signed-in session (`GET /api/auth/session`, ada's, not the owner) and the servers pending
 * deletion (`GET /api/guild-departures`, none); and the leveling settings page's rank card preview
 * (`GET …/leveling/rank-card/preview`, a 1×1 PNG; `rankCardPreviewRoute` to see or refuse it).
 */
export function fakeApi(handler: FakeRoute) {
  const calls: Array<Parameters<FakeRoute>[0]> = [];
  const waiting: Array<{ matches: (request: Parameters<FakeRoute>[0]) => boolean; answered: () => void }> =
    [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    const url = new URL(typeof input === 'string' ? input : input instanceof URL ? input.href : input.url);
    const method = init?.method ?? 'GET';
    const type = headerOf(init, 'content-type');
    // A picked file arrives as a Blob: its text is what the server would read.
    const raw = init?.body instanceof Blob ? await init.body.text() : init?.body;
    const body = bodyOf(raw, type);
    const authorized = headerOf(init, 'authorization') !== undefined;
    // The content type and the Authorization flag ride along unlisted (not enumerable), so a
    // test comparing a whole call with { method, path, body } still can.
    const request: Parameters<FakeRoute>[0] = Object.defineProperties(
      { method, path: url.pathname + url.search, body },
      { type: { value: type }, authorized: { value: authorized } },
    );
    calls.push(request);
    const answer =
      handler(request) ??
      (method === 'GET' && url.pathname === '/api/auth/session'
        ? { status: 200, body: ADA_SESSION }
        : method === 'GET' && url.pathname === '/api/guild-departures'
          ? { status: 200, body: { guilds: [] } }
          : method === 'GET' && PREVIEW_PATH.test(url.pathname)
            ? { status: 200, bytes: PREVIEW_PNG, type: 'image/png' }
            : { status: 404, body: { error: 'not_found', message: 'Not found' } });
    for (const waiter of waiting.filter((waiter) => waiter.matches(request))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.answered();
    }
    if (answer.status === 204) return new Response(null, { status: 204 });
    if (answer.bytes !== undefined) {
      return new Response(answer.bytes, {
        status: answer.status,
        headers: { 'content-type': answer.type ?? 'application/octet-stream' },
      });
    }
    if (answer.text !== undefined) {
      return new Response(answer.text, {
        status: answer.status,
        headers: { 'content-type': answer.type ?? 'text/plain' },
      });
    }
    return new Response(JSON.stringify(answer.body ?? {}), {
      status: answer.status,
      headers: { 'content-type': 'application/json' },
    });
  });
  vi.stubGlobal('fetch', fetchMock);
  /**
   * Resolves once the next request `matches` accepts (made after this call) is answered: a test
   * waits for the page's request itself, not for a clock, however busy the machine is.
   */
  const nextRequest = (matches: (request: Parameters<FakeRoute>[0]) => boolean) =>
    new Promise<void>((answered) => {
      waiting.push({ matches, answered });
    });
  return { calls, fetchMock, nextRequest };
}

export const ADA = { id: '200000000000000001', username: 'ada', discriminator: '0', avatar: null };
/** `GET /api/auth/session` for ada, signed in by signInAda. */
export const ADA_SESSION = { user: ADA, is_owner: false, expires_at: '2030-01-01T00:00:00Z' };
export const STATION = { id: '300000000000000001', name: 'Sandbox Station', icon: null };
export const QUIET = { id: '300000000000000002', name: 'Quiet Quarters', icon: null };

export function signInAda(): void {
  storeSession(ADA, { access_token: 'tok', token_type: 'Bearer', expires_in: 3600 });
}

/** A ranked member as the leaderboards answer it: rank n, with fields to override. */
export const leaderboardMember = (rank: number, extra: Record<string, unknown> = {}) => {
  // The current XP is the board's XP unless a test says otherwise (no season has ended).
  const xp = typeof extra.xp === 'number' ? extra.xp : 1000 - rank;
  return {
    user_id: `90000000000000${String(rank).padStart(4, '0')}`,
    username: `member-${rank}`,
    avatar: null,
    xp,
    level_xp: xp,
    level: 3,
    rank,
    xp_into_level: 40,
    xp_for_next: 160,
    ...extra,
  };
};

/** The board period a leaderboard request asks for (`?period=`; all time when absent). */
export function periodOf(path: string): string {
  return new URL(path, 'http://x').searchParams.get('period') ?? 'all';
}

/** A server's leveling settings as GET /leveling answers them (leveling off, the defaults). */
export const LEVELING_SETTINGS = {
  enabled: false,
  xp_multiplier: 1,
  announcement_channel: null,
  daily_overview_channel: null,
  xp_per_message: 10,
  message_cooldown_sec: 30,
  no_xp_channels: [] as string[],
  no_xp_roles: [] as string[],
  level_up_message: '🎉 {user} reached **level {level}**!',
  level_up_destination: 'channel',
  reward_mode: 'stack',
  leaderboard_visibility: 'off',
  xp_min: 10,
  xp_max: 10,
  voice_xp_per_minute: 0,
  voice_min_members: 2,
  level_curve: { kind: 'quadratic', a: 5, b: 50, c: 100 },
  xp_decay: null,
  rank_card_accent: null,
  season_months: null,
  season_keep_rewards: true,
};

/**
 * GET/PUT /api/guilds/{id}/welcome as the API answers them: the defaults until a PUT, which
 * merges the fields sent. `refuse` answers the next PUT with that 400 message instead.
 */
export function welcomeRoutes(guildId: string, start: Partial<WelcomeSettings> = {}) {
  let stored: WelcomeSettings = { ...DEFAULT_WELCOME_SETTINGS, ...start };
  const state = { refuse: null as string | null };
  const route: FakeRoute = ({ method, path, body }) => {
    if (path !== `/api/guilds/${guildId}/welcome`) return undefined;
    if (method === 'GET') return { status: 200, body: stored };
    if (method !== 'PUT') return undefined;
    if (state.refuse) {
      const message = state.refuse;
      state.refuse = null;
      return { status: 400, body: { error: 'bad_request', message } };
    }
    stored = { ...stored, ...(body as Partial<WelcomeSettings>) };
    return { status: 200, body: stored };
  };
  return { route, state, stored: () => stored };
}

/** A past season as GET /leveling/seasons lists it: season n, with fields to override. */
export const pastSeason = (n: number, extra: Record<string, unknown> = {}) => ({
  id: n,
  name: `Season ${n}`,
  started_at: `2026-0${n}-01T00:00:00.000Z`,
  ended_at: `2026-0${n + 1}-01T00:00:00.000Z`,
  keep_rewards: false,
  members: 12,
  automatic: false,
  top: [1, 2, 3].map((rank) => {
    const { xp_into_level: _into, xp_for_next: _next, level_xp: _now, ...standing } = leaderboardMember(rank);
    return standing;
  }),
  ...extra,
});

/**
 * GET/POST /api/guilds/{id}/leveling/seasons as the API answers them: the listed seasons
 * (newest first) until a POST ends the current one, which is archived on top with `top` as its
 * standings. `refuse` answers the next POST with that status and message instead.
 */
export function seasonsRoutes(
  guildId: string,
  start: { seasons?: unknown[]; current_started_at?: string | null; next_end_at?: string | null } = {},
) {
  let list = {
    current_started_at: start.current_started_at ?? null,
    next_end_at: start.next_end_at ?? null,
    seasons: [...(start.seasons ?? [])],
  };
  const state = {
    refuse: null as { status: number; message: string } | null,
    top: [] as unknown[],
  };
  const route: FakeRoute = ({ method, path, body }) => {
    if (path !== `/api/guilds/${guildId}/leveling/seasons`) return undefined;
    if (method === 'GET') return { status: 200, body: list };
    if (method !== 'POST') return undefined;
    if (state.refuse) {
      const { status, message } = state.refuse;
      state.refuse = null;
      return { status, body: { error: status === 409 ? 'conflict' : 'bad_request', message } };
    }
    const { name, keep_rewards } = body as { name: string; keep_rewards: boolean };
    const endedAt = '2026-11-29T12:00:00.000Z';
    const season = {
      id: list.seasons.length + 1,
      name,
      started_at: list.current_started_at,
      ended_at: endedAt,
      keep_rewards,
      members: state.top.length,
      automatic: false,
      top: state.top,
    };
    list = { ...list, current_started_at: endedAt, seasons: [season, ...list.seasons] };
    return { status: 201, body: season };
  };
  return { route, state };
}

/** A real 1×1 PNG: what the fake API answers for the rank card preview. */
export const PREVIEW_PNG = Uint8Array.from(
  atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='),
  (c) => c.charCodeAt(0),
);

const PREVIEW_PATH = /^\/api\/guilds\/\d+\/leveling\/rank-card\/preview$/;

/**
 * GET /api/guilds/{id}/leveling/rank-card/preview: a small PNG, each request's accent query
 * (null: none) kept in `accents`. `refuse` answers the next one with that 400 message instead.
 */
export function rankCardPreviewRoute(guildId: string) {
  const accents: Array<string | null> = [];
  const state = { refuse: null as string | null };
  const route: FakeRoute = ({ method, path }) => {
    const url = new URL(path, 'http://api.test');
    if (method !== 'GET' || url.pathname !== `/api/guilds/${guildId}/leveling/rank-card/preview`)
      return undefined;
    accents.push(url.searchParams.get('accent'));
    if (state.refuse) {
      const message = state.refuse;
      state.refuse = null;
      return { status: 400, body: { error: 'bad_request', message } };
    }
    return { status: 200, bytes: PREVIEW_PNG, type: 'image/png' };
  };
  return { route, accents, state };
}
