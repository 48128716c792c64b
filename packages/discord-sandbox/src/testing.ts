/**
 * Chromium flags for the headless browser that tests, e2e runs and benchmarks drive (the
 * sandbox's chat view, the dashboard, Lighthouse): no sandboxing or GPU, which containers and
 * CI machines lack, and none of Chromium's own network traffic (updates, sync, QUIC), which has
 * no internet to reach here and would only add noise.
 */
export const CHROMIUM_FLAGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-quic',
  '--no-first-run',
  '--disable-component-update',
  '--disable-sync',
];

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
