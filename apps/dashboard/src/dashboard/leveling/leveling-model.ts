import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { queryKeys } from '../queries.ts';

export const LEVELING_CONFIRM = {
  resetConfig: 'Reset only Leveling config (channels, toggles, multipliers)? Users/roles/boosts are kept.',
  resetAll: 'Reset ALL leveling data for this guild? This deletes users, roles, and boosts.',
  prune: 'Prune users that left the server from leaderboard/storage?',
} as const;

export const LEVELING_FAILURES = {
  loadSettings: 'Failed to load leveling settings',
  save: 'Failed to save',
  loadRoles: 'Failed to load roles',
  addRole: 'Failed to add role',
  updateRole: 'Failed to update role',
  deleteRole: 'Failed to delete role',
  loadBoosts: 'Failed to load boosts',
  addBoost: 'Failed to add boost',
  addRoleBoost: 'Failed to add role boost',
  deleteBoost: 'Failed to delete boost',
} as const;

export function useLeveling(guildId: string) {
  return useQuery({
    queryKey: queryKeys.leveling(guildId),
    queryFn: () => apiCall('getLeveling', { params: { guildId } }),
  });
}

/** Fire-and-forget calls whose failures the spec says to ignore (sync, resend, prune). */
export function ignoreFailure(promise: Promise<unknown>): void {
  promise.catch(() => undefined);
}
