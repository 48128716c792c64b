/**
 * Role menus: one model for every menu of roles members pick from themselves. A menu has a
 * style (how members pick: reactions, buttons or a select menu) and a mode (what a pick does).
 * The Reaction Roles editor's two lists are two menus of style `reactions` (the color list
 * `unique`, the personality list `normal`); an admin's own menus use the same model.
 *
 * The dashboard's preview and the messages the worker posts both come from
 * `buildReactionPanelMessages`, so what an admin previews is what members get.
 */
import {
  emojiMarkdown,
  MAX_REACTIONS_PER_MESSAGE,
  type MenuEmoji,
  parseMenuEmoji,
  type ReactionList,
  type RoleMenuMode,
} from '@spacecadet/contract';
import { truncateForDiscord } from './discord-components.ts';

export const REACTION_LIST_MENUS: Readonly<
  Record<ReactionList, { title: string; mode: RoleMenuMode; color: number; hint: string }>
> = {
  color_roles: {
    title: 'Color Roles',
    mode: 'unique',
    color: 0xec4899,
    hint: 'React to pick a color. Picking another swaps it; remove your reaction to drop it.',
  },
  personality_roles: {
    title: 'Personality Roles',
    mode: 'normal',
    color: 0x8b5cf6,
    hint: 'React to get a role, as many as you like. Remove your reaction to drop it.',
  },
};

export interface RoleMenuOption {
  role_id: string;
  label?: string | undefined;
  /** A unicode emoji, or a custom one as `<:name:id>`, `<a:name:id>` or `name:id`. */
  emoji?: string | undefined;
  description?: string | undefined;
}

/** One option of a reaction panel: its emoji and the line that names it. */
export interface ReactionPanelRow {
  emoji: MenuEmoji;
  roleId: string;
  line: string;
}

/** One message of a reaction panel: its embed, and the reactions the bot adds in order. */
export interface ReactionPanelMessage {
  content: string;
  embeds: Array<{ title: string; description: string; color: number; footer: { text: string } }>;
  rows: ReactionPanelRow[];
}

export interface ReactionPanelInput {
  title: string;
  color: number;
  hint: string;
  options: readonly RoleMenuOption[];
}

const EMBED_DESCRIPTION_MAX = 4096;
const EMBED_TITLE_MAX = 256;

/**
 * The messages of a reaction panel: every option with an emoji, in order, 20 to a message (a
 * longer menu continues in the next message). Each line names the option by its label, else
 * the role (`<@&id>`, which Discord shows as the role's name), then its description.
 * Options without a valid emoji are left out (the API refuses them; an old row may have one).
 */
export function buildReactionPanelMessages(menu: ReactionPanelInput): ReactionPanelMessage[] {
  const rows: ReactionPanelRow[] = [];
  for (const option of menu.options) {
    const emoji = option.emoji === undefined ? null : parseMenuEmoji(option.emoji);
    if (!emoji) continue;
    const name = option.label?.trim() ? `**${option.label.trim()}**` : `<@&${option.role_id}>`;
    const description = option.description?.trim() ? ` — ${option.description.trim()}` : '';
    rows.push({ emoji, roleId: option.role_id, line: `${emojiMarkdown(emoji)} ${name}${description}` });
  }
  const pages: ReactionPanelRow[][] = [];
  for (let i = 0; i < rows.length; i += MAX_REACTIONS_PER_MESSAGE) {
    pages.push(rows.slice(i, i + MAX_REACTIONS_PER_MESSAGE));
  }
  return pages.map((page, index) => ({
    content: '',
    embeds: [
      {
        title: truncateForDiscord(
          pages.length > 1 ? `${menu.title} (${index + 1}/${pages.length})` : menu.title,
          EMBED_TITLE_MAX,
        ),
        description: truncateForDiscord(page.map((row) => row.line).join('\n'), EMBED_DESCRIPTION_MAX),
        color: menu.color,
        footer: { text: menu.hint },
      },
    ],
    rows: page,
  }));
}

/** The panel of one of the editor's two lists. */
export function buildReactionListPanel(
  list: ReactionList,
  options: readonly RoleMenuOption[],
): ReactionPanelMessage[] {
  const { title, color, hint } = REACTION_LIST_MENUS[list];
  return buildReactionPanelMessages({ title, color, hint, options });
}

/** What a member's pick on a menu does to their roles (or why it is refused). */
export type MenuPickPlan =
  | { kind: 'change'; add: string[]; remove: string[] }
  | { kind: 'refused'; reason: 'required_role'; roleId: string }
  | { kind: 'refused'; reason: 'limit'; max: number };

export interface MenuPickRules {
  mode: RoleMenuMode;
  options: readonly { role_id: string }[];
  max_roles?: number | null | undefined;
  required_role_id?: string | null | undefined;
}

/**
 * The one rule of every menu style: what `pick` (`add`: a reaction added or an option chosen;
 * `remove`: a reaction removed or an option unchosen) of `roleId` does to a member who holds
 * `held`. normal toggles; unique keeps at most one role of the menu (picking another swaps);
 * verify only adds; drop only removes (an add of a role removes it); limit adds while the member
 * holds fewer than `max_roles` of the menu's roles. A menu's required role must be held first.
 */
export function planMenuPick(
  menu: MenuPickRules,
  held: ReadonlySet<string>,
  roleId: string,
  pick: 'add' | 'remove',
): MenuPickPlan {
  if (menu.required_role_id && !held.has(menu.required_role_id)) {
    return { kind: 'refused', reason: 'required_role', roleId: menu.required_role_id };
  }
  const menuRoles = menu.options.map((option) => option.role_id);
  const has = held.has(roleId);
  const change = (add: string[], remove: string[]): MenuPickPlan => ({ kind: 'change', add, remove });
  if (pick === 'remove') {
    return menu.mode === 'normal' || menu.mode === 'unique' || menu.mode === 'limit'
      ? change([], has ? [roleId] : [])
      : change([], []);
  }
  switch (menu.mode) {
    case 'drop':
      return change([], has ? [roleId] : []);
    case 'unique':
      return change(
        has ? [] : [roleId],
        menuRoles.filter((id) => id !== roleId && held.has(id)),
      );
    case 'limit': {
      if (has) return change([], []);
      const max = menu.max_roles ?? menuRoles.length;
      const count = menuRoles.filter((id) => held.has(id)).length;
      return count >= max ? { kind: 'refused', reason: 'limit', max } : change([roleId], []);
    }
    default:
      return change(has ? [] : [roleId], []);
  }
}

/** Why a member cannot be given a role by the bot, whatever the menu. */
export type RoleGrantRefusal = 'everyone' | 'managed' | 'not_below_bot';

/**
 * The one rule of which roles the bot can give (the API refuses a row with one, the worker
 * warns and refuses its picks): not @everyone (the guild's id), not managed by an integration,
 * and below the bot's highest role (`botTopPosition`, 0 when it has none), as Discord requires.
 */
export function roleGrantRefusal(
  role: { id: string; managed: boolean; position: number },
  guildId: string,
  botTopPosition: number,
): RoleGrantRefusal | null {
  if (role.id === guildId) return 'everyone';
  if (role.managed) return 'managed';
  if (role.position >= botTopPosition) return 'not_below_bot';
  return null;
}
