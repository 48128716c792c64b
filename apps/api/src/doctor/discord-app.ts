/**
 * The doctor's checks of the Discord application: the bot token (`GET /users/@me`), the
 * application's redirect URIs and Server Members intent (`GET /applications/@me`), and the client
 * id and secret (the token endpoint's client-credentials grant).
 */
import type { ApiConfig } from '../env.ts';
import { type DiscordApplication, DiscordError } from '../services/discord.ts';
import { type CheckLine, discordFailure, doctorClient, fail, pass } from './check.ts';

/** Application flags that let the bot ask for the Server Members intent (verified, or under 100 servers). */
const GATEWAY_GUILD_MEMBERS = 1 << 14;
const GATEWAY_GUILD_MEMBERS_LIMITED = 1 << 15;

export const portal = (clientId: string, page: 'bot' | 'oauth2') =>
  `https://discord.com/developers/applications/${clientId}/${page}`;

/** The bot token: valid when `GET /users/@me` answers 200. */
export async function checkBotToken(config: ApiConfig): Promise<{ line: CheckLine; valid: boolean }> {
  const fix = `Copy the bot's token again (Reset Token at ${portal(config.discord.clientId, 'bot')}) into DISCORD_BOT_TOKEN.`;
  try {
    const user = await doctorClient(config).getBotUser();
    return { line: pass(`bot token valid: the bot is ${user.username} (${user.id})`), valid: true };
  } catch (error) {
    const failure = discordFailure(error);
    if ('status' in failure) {
      return {
        line: fail(`bot token refused by Discord (GET /users/@me: ${failure.status})`, fix),
        valid: false,
      };
    }
    return {
      line: fail(
        `Discord API at ${config.discord.apiBase} not answering (${failure.reason})`,
        'Check the host can reach Discord, or correct DISCORD_API_BASE.',
      ),
      valid: false,
    };
  }
}

/** The application's redirect URIs (sign-in and install callbacks) and its Server Members intent. */
export async function checkApplication(config: ApiConfig): Promise<CheckLine[]> {
  const { clientId } = config.discord;
  let app: DiscordApplication;
  try {
    app = await doctorClient(config).getApplication();
  } catch (error) {
    const failure = discordFailure(error);
    if ('status' in failure) {
      return [
        fail(
          `GET /applications/@me answered ${failure.status}`,
          'Check DISCORD_BOT_TOKEN is the bot of this application.',
        ),
      ];
    }
    return [
      fail(
        `GET /applications/@me not answering (${failure.reason})`,
        'Run the doctor again once Discord answers.',
      ),
    ];
  }
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
  const { clientId } = config.discord;
  try {
    await doctorClient(config).clientCredentials('identify');
    return pass('client id and secret accepted by the token endpoint');
  } catch (error) {
    const failure = discordFailure(error);
    if ('status' in failure) {
      const code = error instanceof DiscordError ? error.discordCode : null;
      return fail(
        `client id and secret refused by the token endpoint (${failure.status} ${code ?? 'no error code'})`,
        `Copy the Client ID and Client Secret (Reset Secret) from ${portal(clientId, 'oauth2')} into DISCORD_CLIENT_ID and DISCORD_CLIENT_SECRET.`,
      );
    }
    return fail(
      `token endpoint not answering (${failure.reason})`,
      'Run the doctor again once Discord answers.',
    );
  }
}
