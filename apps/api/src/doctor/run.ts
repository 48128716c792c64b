/**
 * `pnpm doctor`: checks a deployment before and after it goes live, one ✓/✗ line per check
 * (environment, PostgreSQL and its read replica if any, Redis, the Discord proxy, the Discord
 * application, its gateway and commands). Reads the same environment as the API.
 */
import type { CheckLine } from './check.ts';
import { checkApplication, checkBotToken, checkClientSecret } from './discord-app.ts';
import { checkCommands, checkGateway } from './discord-gateway.ts';
import { checkDiscordProxy } from './discord-proxy.ts';
import { checkEnvironment } from './env-checks.ts';
import { checkPostgres, checkReadReplica } from './postgres.ts';
import { checkRedis } from './redis.ts';
import { checkShardCount } from './shard-count.ts';

/** Every check's line, in order; `env` defaults to the process's (as the API reads it). */
export async function runDoctor(env?: NodeJS.ProcessEnv): Promise<CheckLine[]> {
  const { lines, config } = checkEnvironment(env);
  if (config === null) return lines;
  const [postgres, replica, redis, shards, proxy, token] = await Promise.all([
    checkPostgres(config.databaseUrl),
    config.databaseReadUrl === null ? Promise.resolve(null) : checkReadReplica(config.databaseReadUrl),
    checkRedis(config.redisUrl, config.redisClusterNodes),
    checkShardCount(config),
    checkDiscordProxy(config),
    checkBotToken(config),
  ]);
  lines.push(
    postgres,
    ...(replica ? [replica] : []),
    ...redis,
    ...(shards ? [shards] : []),
    proxy,
    token.line,
  );
  // The application, gateway and commands are read with the bot token: without one, only the
  // client credentials can be checked.
  const [application, client, gateway, commands] = await Promise.all([
    token.valid ? checkApplication(config) : Promise.resolve([]),
    checkClientSecret(config),
    token.valid ? checkGateway(config) : Promise.resolve(null),
    token.valid ? checkCommands(config) : Promise.resolve(null),
  ]);
  lines.push(...application, client);
  for (const line of [gateway, commands]) if (line) lines.push(line);
  return lines;
}
