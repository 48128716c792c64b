/**
 * What a process refuses to start with when NODE_ENV=production, shared by the API, the worker
 * and the dashboard server env readers and by `pnpm doctor`: a session secret anyone can read in
 * this repository, public URLs that are not https or point at this machine, and the sandbox's
 * published Discord credentials. Each refusal is one sentence, `VARIABLE: <what is wrong>; <the
 * fix>.`
 */

/**
 * Every SESSION_SECRET value this repository publishes (compose demo, `pnpm dev`, the API's
 * development fallback, the test stack). A secret in this list signs nothing safely: anyone can
 * forge a session. `production-env.test.ts` greps the tracked files so a new one cannot slip by.
 */
export const PUBLISHED_SESSION_SECRETS: readonly string[] = [
  'compose-demo-secret-change-me-before-going-public',
  'spacecadet-dev-session-secret-not-for-production',
  'dev-only-session-secret-change-me-in-production',
  'test-session-secret-that-is-long-enough-1234',
];

/** The API's SESSION_SECRET when none is set outside production (a warning is logged). */
export const DEV_SESSION_SECRET = 'spacecadet-dev-session-secret-not-for-production';

/** The sandbox's fixed, published Discord credentials (its `SANDBOX_IDS`). */
export const SANDBOX_DISCORD_CREDENTIALS = {
  clientId: '100000000000000001',
  clientSecret: 'sandbox-secret',
  botToken: 'sandbox-bot-token',
} as const;

/** The least length of SESSION_SECRET. */
export const SESSION_SECRET_MIN_LENGTH = 32;

/** Which Discord credentials a process uses, so only those are required of it. */
export interface DiscordCredentialUse {
  botToken?: boolean;
  clientSecret?: boolean;
  /** `required`: missing is refused; `optional`: only the sandbox's value is refused. */
  clientId?: 'required' | 'optional';
}

const GENERATE = 'set a random one, e.g. `openssl rand -hex 32`';

const trimmed = (value: string | undefined): string | undefined => {
  const v = value?.trim();
  return v === undefined || v === '' ? undefined : v;
};

/** Whether `hostname` (as `new URL(...).hostname` spells it) is this machine or unroutable. */
export function isLocalHostname(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host === '[::1]' || host === '[::]' || host === '0.0.0.0') return true;
  return /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/** The refusal of SESSION_SECRET, or null when it is fit for production. */
export function sessionSecretRefusal(value: string | undefined): string | null {
  const secret = trimmed(value);
  if (secret === undefined) return `SESSION_SECRET: required in production; ${GENERATE}.`;
  if (PUBLISHED_SESSION_SECRETS.includes(secret)) {
    return `SESSION_SECRET: is a secret published in this repository (the demo's), so anyone can forge sessions with it; ${GENERATE}.`;
  }
  if (secret.length < SESSION_SECRET_MIN_LENGTH) {
    return `SESSION_SECRET: is shorter than ${SESSION_SECRET_MIN_LENGTH} characters; ${GENERATE}.`;
  }
  return null;
}

/** The refusal of a public URL (PUBLIC_API_URL, DASHBOARD_URL), or null when it is https and public. */
export function publicUrlRefusal(name: string, value: string | undefined): string | null {
  const url = trimmed(value);
  const example = name === 'PUBLIC_API_URL' ? 'https://api.example.org' : 'https://bot.example.org';
  const fix = `set the public https:// address people reach it at (Caddy in front), e.g. ${example}.`;
  if (url === undefined || !URL.canParse(url)) return `${name}: required in production; ${fix}`;
  const parsed = new URL(url);
  if (parsed.protocol !== 'https:') return `${name}: is not an https:// URL; ${fix}`;
  if (isLocalHostname(parsed.hostname)) return `${name}: points at this machine (${parsed.hostname}); ${fix}`;
  return null;
}

function credentialRefusal(name: string, value: string | undefined, sandboxValue: string): string | null {
  const v = trimmed(value);
  if (v === undefined)
    return `${name}: required in production; copy it from your application in the Discord Developer Portal.`;
  if (v === sandboxValue) {
    return `${name}: is the sandbox's published value; copy your application's own from the Discord Developer Portal.`;
  }
  return null;
}

/**
 * Every reason `env` is unfit for production, one `VARIABLE: sentence` each, in a fixed order.
 * Checks SESSION_SECRET and the public URLs always, and the Discord credentials `uses` names.
 */
export function productionRefusals(
  env: Record<string, string | undefined>,
  uses: DiscordCredentialUse = {},
): string[] {
  const refusals = [
    sessionSecretRefusal(env.SESSION_SECRET),
    publicUrlRefusal('PUBLIC_API_URL', env.PUBLIC_API_URL),
    publicUrlRefusal('DASHBOARD_URL', env.DASHBOARD_URL),
  ];
  const creds = SANDBOX_DISCORD_CREDENTIALS;
  if (uses.botToken)
    refusals.push(credentialRefusal('DISCORD_BOT_TOKEN', env.DISCORD_BOT_TOKEN, creds.botToken));
  if (uses.clientSecret) {
    refusals.push(credentialRefusal('DISCORD_CLIENT_SECRET', env.DISCORD_CLIENT_SECRET, creds.clientSecret));
  }
  if (uses.clientId === 'required' || (uses.clientId === 'optional' && trimmed(env.DISCORD_CLIENT_ID))) {
    refusals.push(credentialRefusal('DISCORD_CLIENT_ID', env.DISCORD_CLIENT_ID, creds.clientId));
  }
  return refusals.filter((r): r is string => r !== null);
}

/** Whether the environment asks for production (NODE_ENV=production). */
export const isProductionEnv = (env: Record<string, string | undefined>): boolean =>
  trimmed(env.NODE_ENV) === 'production';

/**
 * An env reader's problems with the production refusals first: a variable a refusal names is not
 * named again by the reader's own check of it (e.g. a short SESSION_SECRET).
 */
export function withRefusals(refusals: readonly string[], problems: readonly string[]): string[] {
  const refused = new Set(refusals.map((r) => r.slice(0, r.indexOf(':'))));
  return [...refusals, ...problems.filter((p) => !refused.has(p.slice(0, p.indexOf(':'))))];
}
