/**
 * Settings that differ per environment. One build serves any environment: the server writes
 * them into `/config.js`, which `index.html` loads before the app.
 */
export interface RuntimeConfig {
  apiUrl: string;
  discordClientId: string;
  discordOauthBase: string;
  /** Where avatars and guild icons come from. */
  cdnBase: string;
  /** The platform owner: sees the owner-only tiles (the API enforces it too). */
  ownerUserId?: string;
  /**
   * The operator's own links and name (SUPPORT_URL, COMMUNITY_URL, PRIVACY_CONTACT,
   * OPERATOR_NAME): unset, the landing, Terms and Privacy say this deployment has not named them.
   */
  operator?: OperatorInfo;
}

export interface OperatorInfo {
  name?: string;
  supportUrl?: string;
  communityUrl?: string;
  /** An email address or an https:// page. */
  privacyContact?: string;
}

export const DEFAULT_RUNTIME_CONFIG: RuntimeConfig = {
  apiUrl: 'http://127.0.0.1:4000',
  discordClientId: '100000000000000001',
  discordOauthBase: 'http://127.0.0.1:4100',
  cdnBase: 'https://cdn.discordapp.com',
};

export const RUNTIME_CONFIG_GLOBAL = '__SPACECADET_CONFIG__';

/** The body of `/config.js`. */
export function configScript(config: RuntimeConfig): string {
  // JSON is valid JS; escape `<` so a value can never close a script tag.
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `window.${RUNTIME_CONFIG_GLOBAL} = ${json};\n`;
}
