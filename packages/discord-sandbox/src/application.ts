/**
 * The application as the Developer Portal keeps it: its flags (the privileged intents it has
 * switched on show there) and its registered OAuth2 redirect URIs, which `GET /applications/@me`
 * answers with, the gateway's IDENTIFY and OAuth2's authorize check, and
 * `PATCH /_sandbox/application` changes.
 */
import { GatewayIntentBits } from 'discord-api-types/v10';
import type { SandboxApplication } from './fixture.ts';

/**
 * Discord's application flags for privileged intents: each intent has a flag for bots in 100 or
 * more servers (verified) and a `_LIMITED` one for smaller bots; either lets the bot ask for it.
 */
export const INTENT_FLAGS = [
  { intent: GatewayIntentBits.GuildPresences, full: 1 << 12, limited: 1 << 13 },
  { intent: GatewayIntentBits.GuildMembers, full: 1 << 14, limited: 1 << 15 },
  { intent: GatewayIntentBits.MessageContent, full: 1 << 18, limited: 1 << 19 },
] as const;

/** The application's `flags`: as set, else the `_LIMITED` flag of each enabled privileged intent. */
export function applicationFlags(app: SandboxApplication): number {
  if (app.flags !== undefined) return app.flags;
  let flags = 0;
  for (const { intent, limited } of INTENT_FLAGS) if (app.privileged_intents & intent) flags |= limited;
  return flags;
}

/** The privileged intents `flags` enable. */
export function intentsOfFlags(flags: number): number {
  let intents = 0;
  for (const { intent, full, limited } of INTENT_FLAGS) if (flags & (full | limited)) intents |= intent;
  return intents;
}

/** A loopback http(s) URL: the demo, `pnpm dev` and the tests run on this machine. */
function isLoopback(uri: string): boolean {
  if (!URL.canParse(uri)) return false;
  const host = new URL(uri).hostname;
  return host === 'localhost' || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/**
 * Whether OAuth2 may send the user to `uri`: Discord accepts only a registered redirect URI
 * (exactly). While the application's URIs are the fixture's own (`loopback_redirects`), any
 * loopback URI is accepted as well, since the demo and the tests run on free ports;
 * `PATCH /_sandbox/application` with `redirect_uris` makes the list exact, as on Discord.
 */
export function redirectUriAllowed(app: SandboxApplication, uri: string): boolean {
  if (app.redirect_uris.includes(uri)) return true;
  return app.loopback_redirects === true && isLoopback(uri);
}
