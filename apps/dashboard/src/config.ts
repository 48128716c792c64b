import { DEFAULT_RUNTIME_CONFIG, RUNTIME_CONFIG_GLOBAL, type RuntimeConfig } from './runtime-config.ts';

declare global {
  interface Window {
    [RUNTIME_CONFIG_GLOBAL]?: Partial<RuntimeConfig>;
  }
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

/** The runtime config `/config.js` set, with defaults for anything missing. */
export function getConfig(): RuntimeConfig {
  const fromPage = typeof window === 'undefined' ? undefined : window[RUNTIME_CONFIG_GLOBAL];
  const merged = { ...DEFAULT_RUNTIME_CONFIG, ...fromPage };
  return {
    ...merged,
    apiUrl: trimSlash(merged.apiUrl),
    discordOauthBase: trimSlash(merged.discordOauthBase),
    cdnBase: trimSlash(merged.cdnBase),
  };
}
