import { HISTORY_AREA_LABELS, HISTORY_AREAS, type HistoryArea, type HistoryRefs } from '@spacecadet/contract';
import { type QueryClient, useInfiniteQuery } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { queryKeys } from '../shared/queries.ts';

export const HISTORY_PAGE_SIZE = 25;
export const HISTORY_FAILURE = 'Failed to load the history';
export const HISTORY_EMPTY = 'No changes yet';
export const UNDO_FAILURE = 'Failed to undo this change';
export const ALL_AREAS = 'all';

export type AreaFilter = HistoryArea | typeof ALL_AREAS;

export const AREA_OPTIONS: ReadonlyArray<{ value: AreaFilter; label: string }> = [
  { value: ALL_AREAS, label: 'All areas' },
  ...HISTORY_AREAS.map((area) => ({ value: area, label: HISTORY_AREA_LABELS[area] })),
];

/** `?area=` as a filter; anything unknown is every area. */
export function areaFrom(raw: string | null): AreaFilter {
  return (HISTORY_AREAS as readonly string[]).includes(raw ?? '') ? (raw as HistoryArea) : ALL_AREAS;
}

/** The server's history, newest first, a page at a time ("Older" asks for the next one). */
export function useHistory(guildId: string, area: AreaFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.history(guildId, area),
    queryFn: ({ pageParam }) =>
      apiCall('listHistory', {
        params: { guildId },
        query: {
          limit: HISTORY_PAGE_SIZE,
          ...(pageParam === null ? {} : { before: pageParam }),
          ...(area === ALL_AREAS ? {} : { area }),
        },
      }),
    initialPageParam: null as number | null,
    getNextPageParam: (last) => last.next_before,
    // Every visit shows the latest changes, including the one just made on another page.
    staleTime: 0,
  });
}

/**
 * The queries of the pages an area's undo changes, so they show the restored values: their
 * data, and the server's roles (a restore recreates Discord roles).
 */
export function areaQueryKeys(guildId: string, area: HistoryArea): ReadonlyArray<readonly unknown[]> {
  const roles = queryKeys.roles(guildId);
  switch (area) {
    case 'config':
      // The raw config holds the reaction-role lists and the color mode too.
      return [queryKeys.config(guildId), queryKeys.reactionRoles(guildId), queryKeys.colorRoles(guildId)];
    case 'reaction_roles':
      return [queryKeys.reactionRoles(guildId), queryKeys.roleMenus(guildId), queryKeys.config(guildId)];
    case 'role_menus':
      return [queryKeys.roleMenus(guildId)];
    case 'color_roles':
      return [queryKeys.colorRoles(guildId), queryKeys.config(guildId), roles];
    case 'personality_roles':
      return [queryKeys.personalityRoles(guildId), roles];
    case 'leveling':
      // Ending a season is undone here too: the hall of fame loses it again.
      return [queryKeys.leveling(guildId), queryKeys.leaderboard(guildId), queryKeys.seasons(guildId), roles];
    case 'welcome':
      return [queryKeys.welcome(guildId)];
    case 'temp_roles':
      // Recorded only (nothing to undo): no page to reload.
      return [];
  }
}

/**
 * After an undo: the area's pages load afresh. Reset, not invalidate: those pages are not on
 * screen, and an invalidated query would still hand its old data to a form that starts from it
 * (the leveling settings form would show the values from before the undo until a reload).
 */
export function reloadArea(queryClient: QueryClient, guildId: string, area: HistoryArea): void {
  for (const key of areaQueryKeys(guildId, area)) void queryClient.resetQueries({ queryKey: key });
}

const relative = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
const UNITS: ReadonlyArray<[Intl.RelativeTimeFormatUnit, number]> = [
  ['year', 365 * 24 * 3600],
  ['month', 30 * 24 * 3600],
  ['week', 7 * 24 * 3600],
  ['day', 24 * 3600],
  ['hour', 3600],
  ['minute', 60],
];

/** "just now", "5 minutes ago", "yesterday", "3 weeks ago". */
export function relativeTime(at: string, now: number = Date.now()): string {
  const seconds = Math.round((new Date(at).getTime() - now) / 1000);
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return 'just now';
}

/** The exact time, in the reader's own zone: shown on hover. */
export function exactTime(at: string): string {
  return new Date(at).toLocaleString('en-US', { dateStyle: 'full', timeStyle: 'long' });
}

/** A changed field as a person reads it: `xp_per_message` -> "XP per message". */
export function fieldLabel(field: string): string {
  const words = field
    .replace(/_/g, ' ')
    .replace(/\bxp\b/gi, 'XP')
    .replace(/\bid\b/gi, 'ID')
    .replace(/\bsec\b/gi, 'seconds');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** A piece of an entry's text: as written, or an id the entry names (`HistoryEntry.refs`). */
export type NamedPart = { text: string } | { id: string; name: string };

/**
 * Where an entry's summary and diff mention an id: a mention (`<@id>`, `<@!id>`, `<@&id>`,
 * `<#id>`), a boost target (`-role:id`, `-channel:id`) or a bare id.
 */
const MENTIONED_ID =
  /<@!?(\d{17,20})>|<@&(\d{17,20})>|<#(\d{17,20})>|-(?:role|channel):(\d{17,20})|(?<!\d)(\d{17,20})(?!\d)/g;

/**
 * The text with each id the entry kept a name for as `@name` (a member or role) or `#name` (a
 * channel), as the dashboard shows them elsewhere; an id without a name stays as written.
 */
export function namedParts(text: string, refs: HistoryRefs): NamedPart[] {
  const parts: NamedPart[] = [];
  let from = 0;
  for (const match of text.matchAll(MENTIONED_ID)) {
    const id = match.slice(1).find((group) => group !== undefined) ?? '';
    const ref = Object.hasOwn(refs, id) ? refs[id] : undefined;
    if (!ref) continue;
    if (match.index > from) parts.push({ text: text.slice(from, match.index) });
    parts.push({ id, name: `${ref.kind === 'channel' ? '#' : '@'}${ref.name}` });
    from = match.index + match[0].length;
  }
  if (from < text.length) parts.push({ text: text.slice(from) });
  return parts;
}

/** `namedParts` as plain text (an accessible name). */
export function namedText(text: string, refs: HistoryRefs): string {
  return namedParts(text, refs)
    .map((part) => ('text' in part ? part.text : part.name))
    .join('');
}
