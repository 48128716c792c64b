import type { LeaderboardPeriod } from '@spacecadet/contract';
import { QueryClient, useQuery } from '@tanstack/react-query';
import { getConfig } from '../../config.ts';
import { apiCall } from '../../lib/api.ts';
import { isApiError } from '../../lib/api-error.ts';
import { useSession } from '../../lib/session.ts';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        refetchOnWindowFocus: false,
        // Only network failures and gateway/unavailable answers may fix themselves.
        retry: (count, error) => count < 2 && (!isApiError(error) || [502, 503, 504].includes(error.status)),
      },
      mutations: { retry: false },
    },
  });
}

/** Every dashboard query key: pages, job trackers and mutations reload through these only. */
export const queryKeys = {
  session: ['session'] as const,
  guilds: ['guilds'] as const,
  /** The servers the user owns whose data waits for its purge (the bot was removed). */
  guildDepartures: ['guild-departures'] as const,
  inGuild: (guildId: string) => ['in-guild', guildId] as const,
  config: (guildId: string) => ['config', guildId] as const,
  reactionRoles: (guildId: string) => ['reaction-roles', guildId] as const,
  roleMenus: (guildId: string) => ['role-menus', guildId] as const,
  colorRoles: (guildId: string) => ['color-roles', guildId] as const,
  personalityRoles: (guildId: string) => ['personality-roles', guildId] as const,
  leveling: (guildId: string) => ['leveling', guildId] as const,
  welcome: (guildId: string) => ['welcome', guildId] as const,
  /** The text channels; `any`, the voice ones too (under the same prefix: one invalidation). */
  channels: (guildId: string, kind: 'text' | 'any' = 'text') => ['channels', guildId, kind] as const,
  botPermissions: (guildId: string) => ['bot-permissions', guildId] as const,
  roles: (guildId: string) => ['roles', guildId] as const,
  memberSearch: (guildId: string, query: string) => ['member-search', guildId, query] as const,
  /** A board's page for its period; without one, every board of the server. */
  leaderboard: (guildId: string, page?: { period: LeaderboardPeriod; limit: number; offset: number }) =>
    page
      ? (['leaderboard', guildId, page.period, page.limit, page.offset] as const)
      : (['leaderboard', guildId] as const),
  /** The hall of fame: past seasons and when the current one started (and ends). */
  seasons: (guildId: string) => ['seasons', guildId] as const,
  job: (jobId: string) => ['job', jobId] as const,
  /** The History page's list; without an area, every filter's list of the server. */
  history: (guildId: string, area?: string) =>
    area === undefined ? (['history', guildId] as const) : (['history', guildId, area] as const),
  /** What a destructive button's confirmation counts (a preview route and its params). */
  impactPreview: (route: string, params: Record<string, string | number>) =>
    ['impact-preview', route, params] as const,
};

export function useAdminGuilds() {
  const { user } = useSession();
  return useQuery({
    queryKey: queryKeys.guilds,
    queryFn: () => apiCall('listAdminGuilds'),
    enabled: user !== null,
  });
}

/**
 * The servers the signed-in user owns whose data is kept until a purge date because the bot was
 * removed. A failure shows nothing: the rail is still usable without the marks.
 */
export function useGuildDepartures() {
  const { user } = useSession();
  return useQuery({
    queryKey: queryKeys.guildDepartures,
    queryFn: () => apiCall('listGuildDepartures'),
    enabled: user !== null,
    retry: false,
  });
}

/** The signed-in session as the API sees it: its user, `is_owner` and expiry. */
export function useSessionInfo() {
  const { user } = useSession();
  return useQuery({
    queryKey: queryKeys.session,
    queryFn: () => apiCall('getSession'),
    enabled: user !== null,
    staleTime: 5 * 60_000,
  });
}

/** Owner-only tiles: the API's `is_owner`, or the configured owner id (filtered client-side). */
export function useIsOwner(): boolean {
  const { user } = useSession();
  const session = useSessionInfo();
  const ownerId = getConfig().ownerUserId;
  return session.data?.is_owner === true || (ownerId !== undefined && user?.id === ownerId);
}

/** Bot presence; any failure counts as "not in the server". */
export function useBotInGuild(guildId: string | null) {
  return useQuery({
    queryKey: queryKeys.inGuild(guildId ?? ''),
    queryFn: async () => {
      try {
        const result = await apiCall('botInGuild', { params: { guildId: guildId ?? '' } });
        return result.inGuild;
      } catch {
        return false;
      }
    },
    enabled: guildId !== null,
  });
}

/**
 * The server's text channels (`any`: its voice channels too, marked `voice`), listed only while
 * the bot is in it.
 */
export function useChannels(guildId: string, botInGuild: boolean, kind: 'text' | 'any' = 'text') {
  return useQuery({
    queryKey: queryKeys.channels(guildId, kind),
    queryFn: () =>
      apiCall('listChannels', { params: { guildId }, ...(kind === 'any' ? { query: { kind } } : {}) }),
    enabled: botInGuild,
  });
}
