/**
 * The doctor's checks of the bot's gateway (`GET /gateway/bot`: session starts left today) and of
 * its slash commands (every command of core's SLASH_COMMANDS registered globally).
 */
import { SLASH_COMMANDS } from '@spacecadet/core';
import type { ApiConfig } from '../env.ts';
import { type CheckLine, discordFailure, doctorClient, fail, pass } from './check.ts';

function duration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

export async function checkGateway(config: ApiConfig): Promise<CheckLine> {
  let limit: { total: number; remaining: number; reset_after: number };
  try {
    limit = (await doctorClient(config).getGatewayBot()).session_start_limit;
  } catch (error) {
    const failure = discordFailure(error);
    if ('status' in failure) {
      return fail(
        `GET /gateway/bot answered ${failure.status}`,
        'Check DISCORD_BOT_TOKEN, then run the doctor again.',
      );
    }
    return fail(
      `GET /gateway/bot not answering (${failure.reason})`,
      'Run the doctor again once Discord answers.',
    );
  }
  if (limit.remaining > 0) {
    return pass(`gateway answers: ${limit.remaining} of ${limit.total} session starts left today`);
  }
  const at = new Date(Date.now() + limit.reset_after).toISOString();
  return fail(
    `gateway: no session starts left (0 of ${limit.total})`,
    `Wait until they reset in ${duration(limit.reset_after)} (${at}), and stop whatever restarts the worker in a loop.`,
  );
}

export async function checkCommands(config: ApiConfig): Promise<CheckLine> {
  let registered: Set<string>;
  try {
    registered = new Set((await doctorClient(config).getGlobalCommands()).map((command) => command.name));
  } catch (error) {
    const failure = discordFailure(error);
    if ('status' in failure) {
      return fail(
        `GET /applications/${config.discord.clientId}/commands answered ${failure.status}`,
        'Check DISCORD_CLIENT_ID is the Application ID of this bot.',
      );
    }
    return fail(
      `commands list not answering (${failure.reason})`,
      'Run the doctor again once Discord answers.',
    );
  }
  const missing = SLASH_COMMANDS.map((command) => command.name).filter((name) => !registered.has(name));
  if (missing.length === 0) return pass(`slash commands registered (${SLASH_COMMANDS.length})`);
  return fail(
    `slash commands not registered: ${missing.map((name) => `/${name}`).join(', ')}`,
    'Start the worker once, it registers them.',
  );
}
