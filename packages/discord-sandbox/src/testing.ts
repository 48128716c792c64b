/** Test helpers of the sandbox (its Chromium flags are `@spacecadet/testing`'s `CHROMIUM_FLAGS`). */
import { randomBytes } from 'node:crypto';
import { defaultFixture } from './default-fixture.ts';
import type { SandboxFixture } from './fixture.ts';
import { SANDBOX_IDS } from './ids.ts';

/**
 * A member's message built and posted straight into the sandbox's world (`sandbox.world`), as
 * its message route does: for a burst a test sends in one go, without an HTTP request each.
 */
export { buildMessage, postMessage } from './message-mutations.ts';

/**
 * Makes a sandbox user refuse (or accept again) DMs from the bot, as Discord's privacy setting
 * does: the bot's posts in their DM then answer 403 50007 "Cannot send messages to this user".
 */
export async function setUserAcceptsDms(sandboxUrl: string, userId: string, accept: boolean): Promise<void> {
  const res = await fetch(`${sandboxUrl}/_sandbox/users/${userId}/dms`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ accept }),
  });
  if (!res.ok) throw new Error(`The sandbox refused the DM setting: ${res.status} ${await res.text()}`);
}

/**
 * An application of an admin's own: the default world with the application (and its bot user)
 * under a fresh id, client secret and bot token, none of them the sandbox's published ones, so
 * a process in production (which refuses the published credentials) can run against it.
 */
export function ownApplication(): {
  credentials: { clientId: string; clientSecret: string; botToken: string };
  fixture: SandboxFixture;
} {
  const credentials = {
    clientId: '123456789012345678',
    clientSecret: randomBytes(16).toString('hex'),
    botToken: randomBytes(24).toString('base64url'),
  };
  const fixture = JSON.parse(
    JSON.stringify(defaultFixture()).replaceAll(SANDBOX_IDS.app, credentials.clientId),
  ) as SandboxFixture;
  fixture.application.client_secret = credentials.clientSecret;
  fixture.application.bot_token = credentials.botToken;
  return { credentials, fixture };
}
