/**
 * The doctor's checks of the Discord application: the bot token (`GET /users/@me`), the
 * application's redirect URIs and Server Members intent (`GET /applications/@me`), and the client
 * id and secret (the token endpoint's client-credentials grant).
 */
import type { ApiConfig } from '../env.ts';
import { type CheckLine, fail, fetchJson, type HttpAnswer, pass, reasonOf } from './check.ts';

/** Application flags that let the bot ask for the Server Members intent (verified, or under 100 servers). */
const GATEWAY_GUILD_MEMBERS = 1 << 14;
const GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;

export const portal = (clientId: string, page: 'bot' | 'oauth2') =>
  `https://discord.com/developers/applications/${clientId}/${page}`;

/** A bot-token GET of Discord's REST API. */
export function botGet(config: ApiConfig, path: string): Promise<HttpAnswer> {
  return fetchJson(`${config.discord.apiBase}/v10${path}`, {
    headers: { authorization: `Bot ${config.discord.botToken}` },
  });
}

/** The bot token: valid when `GET /users/@me` answers 200. */
export async function checkBotToken(config: ApiConfig): Promise<{ line: CheckLine; valid: boolean }> {
  const fix = `Copy the bot's token again (Reset Token at ${portal(config.discord.clientId, 'bot')}) into DISCORD_BOT_TOKEN.`;
  try {
    const answer = await botGet(config, '/users/@me');
    if (answer.status === 200) {
      const user = answer.body as { id: string; username: string };
      return { line: pass(`bot token valid: the bot is ${user.username} (${user.id})`), valid: true };
    }
    return {
      line: fail(`bot token refused by Discord (GET /users/@me: ${answer.status})`, fix),
      valid: false,
    };
  } catch (error) {
    return {
      line: fail(
        `Discord API at ${config.discord.apiBase} not answering (${reasonOf(error)})`,
        'Check the host can reach Discord, or correct DISCORD_API_BASE.',
      ),
      valid: false,
    };
  }
}

interface Application {
  id: string;
  flags: number;
  redirect_uris?: string[];
}

/** The application's redirect URIs (sign-in and install callbacks) and its Server Members intent. */
export async function checkApplication(config: ApiConfig): Promise<CheckLine[]> {
  const { clientId } = config.discord;
  let answer: HttpAnswer;
  try {
    answer = await botGet(config, '/applications/@me');
  } catch (error) {
    return [
      fail(
        `GET /applications/@me not answering (${reasonOf(error)})`,
        'Run the doctor again once Discord answers.',
      ),
    ];
  }
  if (answer.status !== 200) {
    return [
      fail(
        `GET /applications/@me answered ${answer.status}`,
        'Check DISCORD_BOT_TOKEN is the bot of this application.',
      ),
    ];
  }
  const app = answer.body as Application;
  const lines: CheckLine[] = [];
  if (app.id !== clientId) {
    lines.push(
      fail(
        `DISCORD_CLIENT_ID is ${clientId}, but the bot token belongs to application ${app.id}`,
        'Set DISCORD_CLIENT_ID to the Application ID of the bot whose token you use.',
      ),
    );
  }
  const registered = new Set(app.redirect_uris ?? []);
  for (const uri of [`${config.dashboardUrl}/auth/callback`, `${config.publicApiUrl}/install/callback`]) {
    if (registered.has(uri)) lines.push(pass(`redirect URI ${uri} registered`));
    else {
      lines.push(
        fail(`redirect URI ${uri} not registered`, `Add it under Redirects at ${portal(app.id, 'oauth2')}.`),
      );
    }
  }
  if ((app.flags & (GATEWAY_GUILD_MEMBERS | GATEWAY_GUILD_MEMBERS_LIMITED)) !== 0) {
    lines.push(pass('Server Members intent enabled'));
  } else {
    lines.push(
      fail(
        'Server Members intent off (the worker would be refused with 4014)',
        `Turn on Server Members Intent under Privileged Gateway Intents at ${portal(app.id, 'bot')}.`,
      ),
    );
  }
  return lines;
}

/** The client id and secret: the token endpoint grants client credentials with them (HTTP Basic). */
export async function checkClientSecret(config: ApiConfig): Promise<CheckLine> {
  const { clientId, clientSecret, apiBase } = config.discord;
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(clientSecret)}`).toString(
    'base64',
  );
  try {
    const answer = await fetchJson(`${apiBase}/v10/oauth2/token`, {
      method: 'POST',
      headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ grant_type: 'client_credentials', scope: 'identify' }),
    });
    if (answer.status === 200) return pass('client id and secret accepted by the token endpoint');
    const error = (answer.body as { error?: string } | null)?.error ?? 'no error code';
    return fail(
      `client id and secret refused by the token endpoint (${answer.status} ${error})`,
      `Copy the Client ID and Client Secret (Reset Secret) from ${portal(clientId, 'oauth2')} into DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.`,
    );
  } catch (error) {
    return fail(
      `token endpoint not answering (${reasonOf(error)})`,
      'Run the doctor again once Discord answers.',
    );
  }
}
