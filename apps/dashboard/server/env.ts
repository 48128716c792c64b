import {
  EnvError,
  isLocalDiscord,
  isProductionEnv,
  productionRefusals,
  snowflake,
  withRefusals,
} from '@spacecadet/contract';
import { z } from 'zod';
import { DEFAULT_RUNTIME_CONFIG, type RuntimeConfig } from '../src/runtime-config.ts';

const optionalText = z
  .string()
  .trim()
  .transform((value) => (value === '' ? undefined : value))
  .optional();

const httpUrl = (what: string) =>
  optionalText.pipe(
    z.url({ protocol: /^https?$/, error: `must be an http(s):// URL of ${what}` }).optional(),
  );

/** An email address (shown as a mailto: link) or an http(s):// page. */
const privacyContact = optionalText.pipe(
  z
    .union([z.email(), z.url({ protocol: /^https?$/ })], {
      error: 'must be an email address or an http(s):// URL',
    })
    .optional(),
);

const DashboardEnv = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  DASHBOARD_PORT: z.coerce.number().int().min(0).max(65535).default(5173),
  DASHBOARD_HOST: z.string().min(1).default('127.0.0.1'),
  PUBLIC_API_URL: z.url().default(DEFAULT_RUNTIME_CONFIG.apiUrl),
  DISCORD_CLIENT_ID: snowflake('must be a Discord application id').default(
    DEFAULT_RUNTIME_CONFIG.discordClientId,
  ),
  DISCORD_OAUTH_BASE: z.url().default(DEFAULT_RUNTIME_CONFIG.discordOauthBase),
  /** Unset: the sandbox (it serves CDN paths) when the OAuth base is local, else Discord's CDN. */
  DISCORD_CDN_BASE: z.url().optional(),
  OWNER_USER_ID: optionalText,
  /** The operator's support server or page, community server, privacy contact and name. */
  SUPPORT_URL: httpUrl('the support server or page'),
  COMMUNITY_URL: httpUrl('the community server'),
  PRIVACY_CONTACT: privacyContact,
  OPERATOR_NAME: optionalText.pipe(z.string().max(100, 'must be at most 100 characters').optional()),
});

export interface DashboardEnv {
  port: number;
  host: string;
  config: RuntimeConfig;
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');

function defaultCdnBase(oauthBase: string): string {
  return isLocalDiscord(oauthBase) ? oauthBase : DEFAULT_RUNTIME_CONFIG.cdnBase;
}

/** Reads and validates the dashboard's env; a bad value throws naming the variable. */
export function loadDashboardEnv(env: NodeJS.ProcessEnv = process.env): DashboardEnv {
  // NODE_ENV=production: the refusals every process shares. The dashboard server holds no bot
  // token or client secret, but sends people to authorize DISCORD_CLIENT_ID.
  const refusals = isProductionEnv(env) ? productionRefusals(env, { clientId: 'required' }) : [];
  const parsed = DashboardEnv.safeParse(env);
  if (!parsed.success || refusals.length > 0) {
    const problems = parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
    throw new EnvError(withRefusals(refusals, problems), 'dashboard environment');
  }
  const e = parsed.data;
  const config: RuntimeConfig = {
    apiUrl: trimSlash(e.PUBLIC_API_URL),
    discordClientId: e.DISCORD_CLIENT_ID,
    discordOauthBase: trimSlash(e.DISCORD_OAUTH_BASE),
    cdnBase: trimSlash(e.DISCORD_CDN_BASE ?? defaultCdnBase(e.DISCORD_OAUTH_BASE)),
    ...(e.OWNER_USER_ID ? { ownerUserId: e.OWNER_USER_ID } : {}),
  };
  const operator = {
    ...(e.OPERATOR_NAME ? { name: e.OPERATOR_NAME } : {}),
    ...(e.SUPPORT_URL ? { supportUrl: e.SUPPORT_URL } : {}),
    ...(e.COMMUNITY_URL ? { communityUrl: e.COMMUNITY_URL } : {}),
    ...(e.PRIVACY_CONTACT ? { privacyContact: e.PRIVACY_CONTACT } : {}),
  };
  if (Object.keys(operator).length > 0) config.operator = operator;
  return { port: e.DASHBOARD_PORT, host: e.DASHBOARD_HOST, config };
}
