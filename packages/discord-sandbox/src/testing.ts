/** Test helpers of the sandbox (its Chromium flags are `@spacecadet/testing`'s `CHROMIUM_FLAGS`). */

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
