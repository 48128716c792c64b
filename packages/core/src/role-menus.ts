/**
 * Role menus: one model for every menu of roles members pick from themselves. A menu has a
 * style (how members pick: reactions, buttons or a select menu) and a mode (what a pick does).
 * The Reaction Roles editor's two lists are two menus of style `reactions` (the color list
 * `unique`, the personality list `normal`); an admin's own menus use the same model.
 *
 * The dashboard's preview and the messages the worker posts both come from
 * `buildReactionPanelMessages`, so what an admin previews is what members get. What a pick does
 * is in `role-menu-picks.ts`.
 *
 * Why one file: the reaction panels and the admins' own menus are laid out from the same options,
 * limits and message shape; side by side, a Discord limit applied to one is seen missing in the other.
 */
import {
  emojiMarkdown,
  MAX_REACTIONS_PER_MESSAGE,
  type MenuEmoji,
  parseMenuEmoji,
  type ReactionList,
  type RoleMenuMode,
  type RoleMenuStyle,
} from '@spacecadet/contract';
import {
  ButtonStyle,
  ComponentType,
  chunk,
  DISCORD_LIMITS,
  type DiscordActionRow,
  type DiscordButton,
  type DiscordEmoji,
  type DiscordStringSelect,
  truncateForDiscord,
} from './discord-components.ts';
import { roleMenuCustomId } from './role-menu-picks.ts';

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
  /** A temporary role: a member who picks it holds it this many seconds. */
  expires_after_s?: number | undefined;
}

/** One option of a reaction panel: its emoji and the line that names it. */
export interface ReactionPanelRow {
  emoji: MenuEmoji;
  roleId: string;
  line: string;
}

/**
 * One message of a role menu: its embed, its buttons or select menu (none for reactions), and
 * the reactions the bot adds in order (none for buttons and selects).
 */
export interface RoleMenuMessage {
  content: string;
  /** The footer is left out when the hint is the description already (a menu without text). */
  embeds: Array<{ title: string; description: string; color: number; footer?: { text: string } }>;
  components: DiscordActionRow[];
  rows: ReactionPanelRow[];
}

export interface ReactionPanelInput {
  title: string;
  color: number;
  hint: string;
  options: readonly RoleMenuOption[];
  /** Markdown shown above the option lines (an admin's own menu). */
  description?: string | undefined;
}

const EMBED_DESCRIPTION_MAX = 4096;
const EMBED_TITLE_MAX = 256;

/**
 * The messages of a reaction panel: every option with an emoji, in order, 20 to a message (a
 * longer menu continues in the next message). Each line names the option by its label, else
 * the role (`<@&id>`, which Discord shows as the role's name), then its description.
 * Options without a valid emoji are left out (the API refuses them; an old row may have one).
 */
export function buildReactionPanelMessages(
  menu: ReactionPanelInput,
  descriptionMax = EMBED_DESCRIPTION_MAX,
): RoleMenuMessage[] {
  const rows: ReactionPanelRow[] = [];
  for (const option of menu.options) {
    const emoji = option.emoji === undefined ? null : parseMenuEmoji(option.emoji);
    if (!emoji) continue;
    rows.push({ emoji, roleId: option.role_id, line: optionLine(option, emoji) });
  }
  const intro = menu.description?.trim() ?? '';
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
        description: truncateForDiscord(
          [index === 0 ? intro : '', page.map((row) => row.line).join('\n')].filter(Boolean).join('\n\n'),
          descriptionMax,
        ),
        color: menu.color,
        footer: { text: menu.hint },
      },
    ],
    components: [],
    rows: page,
  }));
}

/** An option's line in an embed: its emoji, its label (else the role) and its description. */
function optionLine(option: RoleMenuOption, emoji: MenuEmoji | null): string {
  const name = option.label?.trim() ? `**${option.label.trim()}**` : `<@&${option.role_id}>`;
  const description = option.description?.trim() ? ` — ${option.description.trim()}` : '';
  return `${emoji ? `${emojiMarkdown(emoji)} ` : ''}${name}${description}`;
}

/** The panel of one of the editor's two lists. */
export function buildReactionListPanel(
  list: ReactionList,
  options: readonly RoleMenuOption[],
): RoleMenuMessage[] {
  const { title, color, hint } = REACTION_LIST_MENUS[list];
  return buildReactionPanelMessages({ title, color, hint, options });
}

/** An admin's own menu, as the layout needs it (the dashboard previews unsaved ones). */
export interface RoleMenuLayoutInput {
  /** The menu's id (its components' custom_ids); any placeholder for a preview. */
  id: string;
  title: string;
  description: string;
  /** The embed's color; null for ROLE_MENU_COLOR. */
  color: number | null;
  style: RoleMenuStyle;
  mode: RoleMenuMode;
  max_roles: number | null;
  options: readonly RoleMenuOption[];
}

/** The embed color of a menu without one of its own (Discord's blurple). */
export const ROLE_MENU_COLOR = 0x5865f2;

/** What a menu's footer tells members: how to pick, by style and mode. */
export function roleMenuHint(style: RoleMenuStyle, mode: RoleMenuMode, maxRoles: number | null): string {
  const act = style === 'reactions' ? 'React' : style === 'select' ? 'Pick an option' : 'Click a button';
  const undo =
    style === 'reactions'
      ? 'remove your reaction to drop it'
      : style === 'select'
        ? 'pick it again to drop it'
        : 'click again to drop it';
  switch (mode) {
    case 'unique':
      return `${act} to get its role; you hold one of these at a time, so picking another swaps it. ${capitalize(undo)}.`;
    case 'verify':
      return `${act} to get its role. It stays yours.`;
    case 'drop':
      return `${act} to drop its role.`;
    case 'limit': {
      const max = maxRoles ?? 1;
      return `${act} to get its role, up to ${max} role${max === 1 ? '' : 's'} of this menu; ${undo}.`;
    }
    default:
      return `${act} to get its role, as many as you like; ${undo}.`;
  }
}

function capitalize(text: string): string {
  return `${text.charAt(0).toUpperCase()}${text.slice(1)}`;
}

function componentEmoji(text: string | undefined): DiscordEmoji | undefined {
  const emoji = text === undefined ? null : parseMenuEmoji(text);
  if (!emoji) return undefined;
  if (emoji.id === null) return { name: emoji.name };
  return emoji.animated
    ? { name: emoji.name, id: emoji.id, animated: true }
    : { name: emoji.name, id: emoji.id };
}

/**
 * The messages of an admin's own menu, as the worker posts them and the dashboard previews
 * them. Reactions: the reaction panel layout (20 a message), the description above the lines.
 * Buttons: one message, its embed (the description, and the options' lines when one has a
 * description), up to 25 buttons in rows of 5. Select: one message and one select menu whose
 * options are the menu's (a unique menu takes one pick, a limit menu up to `max_roles`).
 */
export function buildRoleMenuMessages(
  menu: RoleMenuLayoutInput,
  descriptionMax = EMBED_DESCRIPTION_MAX,
): RoleMenuMessage[] {
  const color = menu.color ?? ROLE_MENU_COLOR;
  const hint = roleMenuHint(menu.style, menu.mode, menu.max_roles);
  const title = truncateForDiscord(menu.title.trim(), EMBED_TITLE_MAX);
  if (menu.style === 'reactions') {
    return buildReactionPanelMessages(
      { title, color, hint, options: menu.options, description: menu.description },
      descriptionMax,
    );
  }
  if (menu.options.length === 0) return [];
  const intro = menu.description.trim();
  const lines =
    menu.style === 'buttons' && menu.options.some((option) => option.description?.trim())
      ? menu.options.map((option) => optionLine(option, parseMenuEmoji(option.emoji ?? ''))).join('\n')
      : '';
  const text = [intro, lines].filter(Boolean).join('\n\n');
  // Without text of its own the embed says how to pick, once: in the description, not the footer.
  const description = text || hint;
  const components: DiscordActionRow[] =
    menu.style === 'buttons'
      ? menuButtons(menu)
      : [{ type: ComponentType.ActionRow, components: [menuSelect(menu)] }];
  return [
    {
      content: '',
      embeds: [
        {
          title,
          description: truncateForDiscord(description, descriptionMax),
          color,
          ...(text ? { footer: { text: hint } } : {}),
        },
      ],
      components,
      rows: [],
    },
  ];
}

/** The most characters Discord shows in an embed's description (a menu's text). */
export const ROLE_MENU_TEXT_MAX = EMBED_DESCRIPTION_MAX;

/**
 * The longest embed text of the menu's messages as the layout draws it, before it is cut to
 * `ROLE_MENU_TEXT_MAX` (the description above the options' lines): past it, members would miss
 * the end of the text, reactions' lines included.
 */
export function roleMenuTextLength(menu: RoleMenuLayoutInput): number {
  const pages = buildRoleMenuMessages(menu, Number.POSITIVE_INFINITY);
  return Math.max(0, ...pages.map((page) => page.embeds[0]?.description.length ?? 0));
}

function optionLabel(option: RoleMenuOption, max: number): string {
  return truncateForDiscord(option.label?.trim() || 'Role', max);
}

function menuButtons(menu: RoleMenuLayoutInput): DiscordActionRow[] {
  const max = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;
  const buttons: DiscordButton[] = menu.options.slice(0, max).map((option) => {
    const emoji = componentEmoji(option.emoji);
    return {
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: roleMenuCustomId(menu.id, option.role_id),
      label: optionLabel(option, DISCORD_LIMITS.buttonLabelLength),
      ...(emoji ? { emoji } : {}),
    };
  });
  return chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map((components) => ({
    type: ComponentType.ActionRow,
    components,
  }));
}

function menuSelect(menu: RoleMenuLayoutInput): DiscordStringSelect {
  const options = menu.options.slice(0, DISCORD_LIMITS.selectOptions);
  const most =
    menu.mode === 'unique'
      ? 1
      : menu.mode === 'limit'
        ? Math.min(menu.max_roles ?? 1, options.length)
        : options.length;
  return {
    type: ComponentType.StringSelect,
    custom_id: roleMenuCustomId(menu.id),
    placeholder: truncateForDiscord(
      menu.mode === 'drop' ? 'Pick the roles to drop' : most === 1 ? 'Pick a role' : 'Pick your roles',
      DISCORD_LIMITS.selectPlaceholderLength,
    ),
    min_values: 1,
    max_values: Math.max(1, most),
    options: options.map((option) => {
      const emoji = componentEmoji(option.emoji);
      const description = option.description?.trim();
      return {
        label: optionLabel(option, DISCORD_LIMITS.selectOptionLabelLength),
        value: option.role_id,
        ...(description
          ? { description: truncateForDiscord(description, DISCORD_LIMITS.selectOptionDescriptionLength) }
          : {}),
        ...(emoji ? { emoji } : {}),
      };
    }),
  };
}
