import { useSyncExternalStore } from 'react';

/** localStorage keys (names kept stable: a browser keeps them across releases). */
export const PREFERENCE_KEYS = {
  effects: 'effects_enabled',
  installedGuilds: 'installed_guilds',
  sidebarCollapsed: 'sidebar_collapsed',
  sidebarGroups: 'sidebar_groups_open',
} as const;

const listeners = new Set<() => void>();
function notify(): void {
  for (const listener of listeners) listener();
}
function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function read(key: string): string | null {
  try {
    return window.localStorage.getItem(key);
  } catch {
    return null;
  }
}
function write(key: string, value: string): void {
  try {
    window.localStorage.setItem(key, value);
  } catch {
    // Private mode or a full quota: the preference just does not persist.
  }
  notify();
}

export function prefersReducedMotion(): boolean {
  return (
    typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches
  );
}

export function getEffectsEnabled(): boolean {
  const stored = read(PREFERENCE_KEYS.effects);
  if (stored === 'true') return true;
  if (stored === 'false') return false;
  return !prefersReducedMotion();
}

export function setEffectsEnabled(enabled: boolean): void {
  write(PREFERENCE_KEYS.effects, String(enabled));
}

export function useEffectsEnabled(): [boolean, (enabled: boolean) => void] {
  const enabled = useSyncExternalStore(subscribe, getEffectsEnabled, getEffectsEnabled);
  return [enabled, setEffectsEnabled];
}

export function getInstalledGuilds(): string[] {
  try {
    const parsed: unknown = JSON.parse(read(PREFERENCE_KEYS.installedGuilds) ?? '[]');
    return Array.isArray(parsed) ? parsed.filter((id): id is string => typeof id === 'string') : [];
  } catch {
    return [];
  }
}

export function addInstalledGuild(guildId: string): void {
  const guilds = getInstalledGuilds();
  if (!guilds.includes(guildId)) write(PREFERENCE_KEYS.installedGuilds, JSON.stringify([...guilds, guildId]));
}

/** The stored flag; without one, collapsed on narrow screens where the sidebar sits above the page. */
export function getSidebarCollapsed(): boolean {
  const stored = read(PREFERENCE_KEYS.sidebarCollapsed);
  if (stored !== null) return stored === 'true';
  return typeof window.matchMedia === 'function' && window.matchMedia('(max-width: 860px)').matches;
}
export function setSidebarCollapsed(collapsed: boolean): void {
  write(PREFERENCE_KEYS.sidebarCollapsed, String(collapsed));
}

export function getSidebarGroupsOpen(): Record<string, boolean> {
  try {
    const parsed: unknown = JSON.parse(read(PREFERENCE_KEYS.sidebarGroups) ?? '{}');
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return {};
    return Object.fromEntries(
      Object.entries(parsed).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'),
    );
  } catch {
    return {};
  }
}
export function setSidebarGroupsOpen(open: Record<string, boolean>): void {
  write(PREFERENCE_KEYS.sidebarGroups, JSON.stringify(open));
}
