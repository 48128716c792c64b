import { z } from 'zod';

/** Every error code the API answers with. */
const ERROR_CODES = [
  'invalid_input',
  'not_authenticated',
  'auth_failed',
  'session_expired',
  'forbidden',
  'not_found',
  'conflict',
  'changed_since',
  'bot_not_in_guild',
  'payload_too_large',
  'unsupported_media_type',
  'rate_limited',
  'discord_guilds_fetch_failed',
  'discord_request_failed',
  'invite_fetch_failed',
  'color_roles_unavailable',
  'role_cap_reached',
  'service_unavailable',
  'internal_error',
] as const;

export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

/** The status each code is answered with. */
export const ERROR_STATUS: Record<ErrorCode, number> = {
  invalid_input: 400,
  not_authenticated: 401,
  auth_failed: 401,
  session_expired: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  changed_since: 409,
  bot_not_in_guild: 409,
  payload_too_large: 413,
  unsupported_media_type: 415,
  rate_limited: 429,
  discord_guilds_fetch_failed: 502,
  discord_request_failed: 502,
  invite_fetch_failed: 502,
  color_roles_unavailable: 501,
  role_cap_reached: 409,
  service_unavailable: 503,
  internal_error: 500,
};

/** User-facing wording the dashboard and the API share, word for word. */
export const MESSAGES = {
  invalidJson: 'Invalid JSON',
  channelIdRequired: 'Channel ID required',
  selectChannelFirst: 'Select a channel first',
  signInRequired: 'Sign in required',
  noCodeProvided: 'No code provided. Please try signing in again.',
  botInstallOnSignIn:
    'Looks like a bot-install callback hit the user sign-in page. Use the Invite link instead.',
  discordGuildsFetchFailed: 'Discord guild fetch failed temporarily. Try again.',
  colorRolesUnavailable: 'Server database is not configured yet for color roles.',
  botNotInGuild: 'Bot not in guild',
  noAdminServers: 'No admin servers',
  reactionRowRequired: (n: number) => `Row ${n}: emoji and role_id required`,
  guildDataOwnerOnly: "Only the server's owner can delete its data.",
  guildDataConfirmMismatch: "Type the server's name exactly as it is on Discord to confirm.",
} as const;
