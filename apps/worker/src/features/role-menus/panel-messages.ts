import type { RoleMenuMessage } from '@spacecadet/core';
import type { RoleMenuRow } from '@spacecadet/db/schema';
import type { APIMessage, Client } from 'discord.js';
import { DiscordCodes, discordApi, fetchMessageOrNull, isDiscordError } from '../../discord-rest.ts';
import { deleteGuildMessage } from '../../guild-scope.ts';
import { menuName } from './names.ts';

/**
 * A panel's messages as Discord has them: each recorded page read back (or found among the
 * channel's recent messages when a killed run never stored it), compared with the layout, and
 * the messages no page needs any more deleted.
 */

/** How far back to look for panel messages a killed run posted but never recorded. */
const RECENT_MESSAGES = 50;

/** Where a panel goes: its channel, whether it moves there, and the other menus' messages. */
export interface PanelPlace {
  channelId: string;
  /** Post / Update to a newly saved channel: posted there first, then the old messages deleted. */
  moving: boolean;
  /** Message ids recorded by the guild's other menus (never taken as this menu's). */
  others: ReadonlySet<string>;
}

/**
 * Each page's message as Discord has it now (null: deleted, or not posted yet), then any more
 * found (leftovers). A page missing may have been posted by a run killed before it stored the
 * id: the bot's recent messages titled as this panel, recorded by no menu, take the missing
 * places (and any more are leftovers), so a rerun leaves one panel.
 */
export async function panelSlots(
  client: Client,
  menu: RoleMenuRow,
  pageCount: number,
  place: PanelPlace,
): Promise<Array<APIMessage | null>> {
  const recorded = menu.messageIds;
  const slots: Array<APIMessage | null> = [];
  for (const id of place.moving ? [] : recorded)
    slots.push(await fetchMessageOrNull(client, place.channelId, id));
  while (slots.length < pageCount) slots.push(null);
  if (slots.slice(0, pageCount).some((slot) => slot === null)) {
    const exclude = new Set([...recorded, ...place.others]);
    const found = await findUnrecordedPages(client, place.channelId, menuName(menu), exclude);
    for (const [index, slot] of slots.entries()) {
      if (slot === null && index < pageCount) slots[index] = found.shift() ?? null;
    }
    slots.push(...found);
  }
  return slots;
}

/**
 * Deletes panel messages no page needs; one the bot may not delete gets a warning asking the
 * admin to. Returns how many were deleted.
 */
export async function deleteLeftovers(
  client: Client,
  guildId: string,
  leftovers: ReadonlyArray<{ channelId: string; messageId: string }>,
  name: string,
  warnings: string[],
): Promise<number> {
  let deleted = 0;
  for (const leftover of leftovers) {
    try {
      await deleteGuildMessage(client, guildId, leftover.channelId, leftover.messageId);
      deleted += 1;
    } catch (error) {
      if (!isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.MissingAccess)) throw error;
      warnings.push(
        `${name}: I could not delete an old panel message in <#${leftover.channelId}>. Delete it by hand.`,
      );
    }
  }
  return deleted;
}

export function body(page: RoleMenuMessage) {
  return { content: page.content, embeds: page.embeds, components: page.components };
}

/** Whether the posted message already shows the page (then it is not edited again). */
export function sameContent(message: APIMessage, page: RoleMenuMessage): boolean {
  const [embed] = message.embeds;
  const [want] = page.embeds;
  return (
    message.embeds.length === 1 &&
    embed !== undefined &&
    want !== undefined &&
    message.content === page.content &&
    embed.title === want.title &&
    embed.description === want.description &&
    embed.color === want.color &&
    (embed.footer?.text ?? null) === (want.footer?.text ?? null) &&
    sameComponents(message.components ?? [], page.components)
  );
}

/** Discord's copy of the components against the layout's, field by field the layout sets. */
function sameComponents(posted: readonly unknown[], wanted: RoleMenuMessage['components']): boolean {
  const shape = (row: unknown): unknown => {
    if (typeof row !== 'object' || row === null) return row;
    const { type, components, style, custom_id, label, emoji, placeholder, min_values, max_values, options } =
      row as Record<string, unknown>;
    const emojiOf = (value: unknown) => {
      const e = value as { id?: string | null; name?: string | null } | undefined;
      return e ? { id: e.id ?? null, name: e.name ?? null } : null;
    };
    return {
      type,
      components: Array.isArray(components) ? components.map(shape) : null,
      style: style ?? null,
      custom_id: custom_id ?? null,
      label: label ?? null,
      emoji: emojiOf(emoji),
      placeholder: placeholder ?? null,
      min_values: min_values ?? null,
      max_values: max_values ?? null,
      options: Array.isArray(options)
        ? options.map((option: Record<string, unknown>) => ({
            label: option.label,
            value: option.value,
            description: option.description ?? null,
            emoji: emojiOf(option.emoji),
          }))
        : null,
    };
  };
  return JSON.stringify(posted.map(shape)) === JSON.stringify(wanted.map(shape));
}

/**
 * A killed run may have posted pages it never stored: the bot's recent messages in the channel
 * titled as this menu's panel, not recorded by any menu, oldest first.
 */
async function findUnrecordedPages(
  client: Client,
  channelId: string,
  title: string,
  exclude: ReadonlySet<string>,
): Promise<APIMessage[]> {
  const botId = client.user?.id;
  if (!botId) return [];
  let messages: APIMessage[];
  try {
    messages = await discordApi(client).channels.getMessages(channelId, { limit: RECENT_MESSAGES });
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel)) throw error;
    return [];
  }
  return messages
    .filter((message) => {
      const found = message.embeds[0]?.title ?? '';
      return (
        message.author.id === botId &&
        !exclude.has(message.id) &&
        (found === title || found.startsWith(`${title} (`))
      );
    })
    .sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}
