import { MESSAGES } from '@spacecadet/contract';
import { botGuilds, type Db } from '@spacecadet/db';
import { eq } from 'drizzle-orm';
import { ApiError } from '../errors.ts';

/** Whether the bot is in the guild, as the worker records it in `bot_guilds`. */
export async function isBotInGuild(db: Db, guildId: string): Promise<boolean> {
  const [row] = await db
    .select({ guildId: botGuilds.guildId })
    .from(botGuilds)
    .where(eq(botGuilds.guildId, guildId))
    .limit(1);
  return row !== undefined;
}

export async function assertBotInGuild(db: Db, guildId: string): Promise<void> {
  if (!(await isBotInGuild(db, guildId))) throw new ApiError('bot_not_in_guild', MESSAGES.botNotInGuild);
}
