import { isSnowflake, type MemberSummary } from '@spacecadet/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { queryKeys } from './queries.ts';

const LOOKUP_STALE_MS = 5 * 60_000;

/** The guild's roles but @everyone, highest first (cached by the API per guild). */
export function useGuildRoles(guildId: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.roles(guildId),
    queryFn: () => apiCall('listRoles', { params: { guildId } }),
    enabled,
    staleTime: 60_000,
  });
}

/** The member a stored id names (name and avatar), or undefined while unknown or not a member. */
export function useMemberLookup(guildId: string, userId: string | null): MemberSummary | undefined {
  const id = userId?.trim() ?? '';
  const lookup = useQuery({
    queryKey: queryKeys.memberSearch(guildId, id),
    queryFn: () => apiCall('searchMembers', { params: { guildId }, query: { query: id } }),
    enabled: isSnowflake(id),
    staleTime: LOOKUP_STALE_MS,
    retry: false,
  });
  return lookup.data?.members.find((member) => member.id === id);
}

/**
 * The guild's members matching `term` (no search while it is empty); the previous answer stays
 * shown while the next one loads.
 */
export function useMemberSearch(guildId: string, term: string) {
  return useQuery({
    queryKey: queryKeys.memberSearch(guildId, term),
    queryFn: () => apiCall('searchMembers', { params: { guildId }, query: { query: term } }),
    enabled: term !== '',
    staleTime: 30_000,
    retry: false,
    placeholderData: keepPreviousData,
  });
}
