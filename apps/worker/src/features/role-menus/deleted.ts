import { dropDeletedMenu, loadGuildMenus, saveMenuMessages } from '@spacecadet/db/queries/role-menus';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';
import { deleteGuildMessage } from '../../guild-scope.ts';
import type { JobContext } from '../../jobs/types.ts';
import { menuName } from './names.ts';
import { forgetAllPicks } from './panel-reactions.ts';

/** What removing the guild's deleted menus came to. */
export interface DeletedMenusRemoval {
  /** Deleted menus whose messages went and whose row was dropped. */
  removed: number;
  warnings: string[];
}

/**
 * The menus an admin deleted after they were posted (`deleted_at`): their messages are deleted
 * (gone already is fine), their picks forgotten, and the row goes. A message the bot may not
 * delete is left with a warning to delete it by hand (its buttons then answer that the menu is
 * out of date), as a post's leftover messages are.
 */
export async function removeDeletedMenus(context: JobContext): Promise<DeletedMenusRemoval> {
  const { client, db } = context.deps;
  const guildId = context.payload.guild_id;
  const removal: DeletedMenusRemoval = { removed: 0, warnings: [] };
  const deleted = (await loadGuildMenus(db, guildId, { deleted: true })).filter((menu) => menu.deletedAt);
  for (const menu of deleted) {
    const channelId = menu.messageChannelId ?? menu.channelId;
    for (const messageId of channelId ? menu.messageIds : []) {
      try {
        await deleteGuildMessage(client, guildId, channelId ?? '', messageId);
      } catch (error) {
        if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) throw error;
        removal.warnings.push(
          `${menuName(menu)} was deleted, but I could not delete its message in <#${channelId}>. Delete it by hand.`,
        );
      }
    }
    await saveMenuMessages(db, menu.id, { messageIds: [], channelId: null });
    await forgetAllPicks(context, menu);
    await dropDeletedMenu(db, menu.id);
    removal.removed += 1;
  }
  return removal;
}
