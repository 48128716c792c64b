/**
 * The doctor's checks of the bot's gateway (`GET /gateway/bot`: session starts left today) and of
 * its slash commands (every command of core's SLASH_COMMANDS registered globally).
 */
import { SLASH_COMMANDS } from '@spacecadet/core';
import type { ApiConfig } from '../env.ts';
import { type CheckLine, fail, pass, reasonOf } from './check.ts';
import { botGet } from './discord-app.ts';

interface SessionStartLimit {
  total: number;
  remaining: number;
  reset_after: number;
  max_concurrency: number;
}

function duration(ms: number): string {
  const minutes = Math.ceil(ms / 60_000);
  return minutes >= 60 ? `${Math.floor(minutes / 60)} h ${minutes % 60} min` : `${minutes} min`;
}

export async function checkGateway(config: ApiConfig): Promise<CheckLine> {
  try {
    const answer = await botGet(config, '/gateway/bot');
    if (answer.status !== 200) {
      return fail(
        `GET /gateway/bot answered ${answer.status}`,
        'Check DISCORD_BOT_TOKEN, then run the doctor again.',
      );
    }
    const limit = (answer.body as { session_start_limit: SessionStartLimit }).session_start_limit;
    if (limit.remaining > 0) {
      return pass(`gateway answers: ${limit.remaining} of ${limit.total} session starts left today`);
    }
    const at = new Date(Date.now() + limit.reset_after).toISOString();
    return fail(
      `gateway: no session starts left (0 of ${limit.total})`,
      `Wait until they reset in ${duration(limit.reset_after)} (${at}), and stop whatever restarts the worker in a loop.`,
    );
  } catch (error) {
    return fail(
      `GET /gateway/bot not answering (${reasonOf(error)})`,
      'Run the doctor again once Discord answers.',
    );
  }
}

export async function checkCommands(config: ApiConfig): Promise<CheckLine> {
  try {
    const answer = await botGet(config, `/applications/${config.discord.clientId}/commands`);
    if (answer.status !== 200) {
      return fail(
        `GET /applications/${config.discord.clientId}/commands answered ${answer.status}`,
        'Check DISCORD_CLIENT_ID is the Application ID of this bot.',
      );
    }
    const registered = new Set((answer.body as { name: string }[]).map((command) => command.name));
    const missing = SLASH_COMMANDS.map((command) => command.name).filter((name) => !registered.has(name));
    if (missing.length === 0) return pass(`slash commands registered (${SLASH_COMMANDS.length})`);
    return fail(
      `slash commands not registered: ${missing.map((name) => `/${name}`).join(', ')}`,
      'Start the worker once, it registers them.',
    );
  } catch (error) {
    return fail(
      `commands list not answering (${reasonOf(error)})`,
      'Run the doctor again once Discord answers.',
    );
  }
}
