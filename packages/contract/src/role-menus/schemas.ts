/**
 * Role menus of the admin's own: a title, a Markdown description, a channel, a style (how
 * members pick: buttons, one select menu, or reactions), a mode (what a pick does, see core's
 * `planMenuPick`) and options on any roles of the server the bot can give. Each is a row of
 * `role_menus` without a `list_key`; the Reaction Roles editor's two lists are rows of the same
 * table (one mechanism, see core's `role-menus.ts`).
 */
import { z } from 'zod';
import { ChannelId, Snowflake, Timestamp } from '../common.ts';
import { SNOWFLAKE_DIGITS, SNOWFLAKE_PATTERN } from '../ids.ts';
import { NOT_BLANK, storableText } from '../inputs.ts';
import { menuEmojiKey, parseMenuEmoji } from '../reaction-roles/emoji.ts';
import {
  MAX_REACTION_LIST_ROWS,
  ReactionPanelLocation,
  ROLE_MENU_MODES,
  ROLE_MENU_STYLES,
  RoleMenuMode,
  RoleMenuStyle,
} from '../reaction-roles/schemas.ts';
import {
  TEMP_ROLE_DURATION_MESSAGE,
  TEMP_ROLE_MAX_SECONDS,
  TEMP_ROLE_MIN_SECONDS,
} from '../temp-roles/schemas.ts';

/** The most menus one server has. */
export const MAX_ROLE_MENUS = 25;

/**
 * The most options a menu of each style holds: 25 buttons (5 rows of 5), one select menu of 25
 * (Discord's limits), 40 reactions (20 a message, Discord's limit; a longer menu continues in a
 * second message).
 */
export const ROLE_MENU_MAX_OPTIONS: Readonly<Record<RoleMenuStyle, number>> = {
  buttons: 25,
  select: 25,
  reactions: MAX_REACTION_LIST_ROWS,
};

export const ROLE_MENU_TITLE_MAX = 200;
export const ROLE_MENU_DESCRIPTION_MAX = 2000;
export const ROLE_MENU_LABEL_MAX = 80;
export const ROLE_MENU_OPTION_DESCRIPTION_MAX = 100;

const STYLE_WORDS: Record<RoleMenuStyle, string> = {
  buttons: 'A menu of buttons',
  select: 'A select menu',
  reactions: 'A menu of reactions',
};

/** The API's refusals that need the server, and those of the routes. */
export const ROLE_MENU_MESSAGES = {
  tooMany: `A server has at most ${MAX_ROLE_MENUS} role menus; delete one first`,
  notFound: 'No such role menu in this server',
  /** How a refusal names an option: `Option 3` (counting from 1, as the editor shows them). */
  option: (index: number) => `Option ${index + 1}`,
  requiredRoleUnknown: 'required_role_id is not a role of this server',
} as const;

/** Whether a role id sits at `options[n].role_id` (then the refusal names the option). */
const optionOf = (issue: { readonly path?: PropertyKey[] | undefined }) => Number(issue.path?.[1] ?? 0);
const optionRequired = (issue: { readonly path?: PropertyKey[] | undefined }) =>
  `${ROLE_MENU_MESSAGES.option(optionOf(issue))}: role_id is required`;
const optionRoleId = (issue: { readonly path?: PropertyKey[] | undefined }) =>
  `${ROLE_MENU_MESSAGES.option(optionOf(issue))}: role_id must be a Discord role id`;
/** An option's expiry that is not a whole number of seconds within the temp-role bounds. */
const optionExpiry = (issue: { readonly path?: PropertyKey[] | undefined }) =>
  `${ROLE_MENU_MESSAGES.option(optionOf(issue))}: ${TEMP_ROLE_DURATION_MESSAGE.replace('duration_s', 'expires_after_s')}`;
/** An option's text field: a refusal of its type or length names the option and the field. */
const optionText = (field: string, max: number) =>
  storableText({
    error: (issue) => `${ROLE_MENU_MESSAGES.option(optionOf(issue))}: ${field} must be text`,
  }).max(max, {
    error: (issue) =>
      `${ROLE_MENU_MESSAGES.option(optionOf(issue))}: ${field} must be at most ${max} characters`,
  });

const RoleMenuOptionInput = z.object(
  {
    role_id: storableText({ error: optionRequired })
      .max(32)
      .regex(NOT_BLANK, { error: optionRequired })
      .regex(new RegExp(`^\\s*${SNOWFLAKE_DIGITS}\\s*$`), { error: optionRoleId }),
    label: optionText('label', ROLE_MENU_LABEL_MAX).optional().meta({
      description:
        'What the button or select option says (required for buttons and select); reactions show it beside the emoji (else the role)',
    }),
    emoji: optionText('emoji', 64).optional().meta({
      description:
        'One unicode emoji, or a custom emoji of this server as <:name:id>, <a:name:id> or name:id; required for reactions',
    }),
    description: optionText('description', ROLE_MENU_OPTION_DESCRIPTION_MAX).optional(),
    expires_after_s: z
      .number({ error: (issue) => optionExpiry(issue) })
      .int({ error: (issue) => optionExpiry(issue) })
      .min(TEMP_ROLE_MIN_SECONDS, { error: (issue) => optionExpiry(issue) })
      .max(TEMP_ROLE_MAX_SECONDS, { error: (issue) => optionExpiry(issue) })
      .optional()
      .meta({
        description:
          'A temporary role: a member who picks it holds it this many seconds (60 to a year), then the bot takes it back',
      }),
  },
  {
    error: (issue) => `${ROLE_MENU_MESSAGES.option(optionOf(issue))} must be an object with a role_id`,
  },
);
export type RoleMenuOptionInput = z.infer<typeof RoleMenuOptionInput>;

const HEX_COLOR = /^#?[0-9A-Fa-f]{6}$/;
const COLOR_MESSAGE = 'color must be a hex color like #5865F2';
const REQUIRED_ROLE_MESSAGE = 'required_role_id must be a Discord role id, or null for none';

/**
 * A whole menu, as POST creates it and PUT replaces it. Every refusal names the field (and the
 * option, counting from 1): more options than the style holds, a role or an emoji twice, a
 * reaction option without an emoji, a button or select option without a label, `limit` without
 * `max_roles` from 1 to the number of options, no option at all.
 */
export const RoleMenuBody = z
  .object({
    title: storableText({ error: 'title is required' })
      .max(ROLE_MENU_TITLE_MAX, `title must be at most ${ROLE_MENU_TITLE_MAX} characters`)
      .regex(NOT_BLANK, 'title is required'),
    description: storableText({ error: 'description must be text' })
      .max(ROLE_MENU_DESCRIPTION_MAX, `description must be at most ${ROLE_MENU_DESCRIPTION_MAX} characters`)
      .default(''),
    color: z
      .string({ error: COLOR_MESSAGE })
      .regex(HEX_COLOR, COLOR_MESSAGE)
      .nullable()
      .default(null)
      .meta({ description: "The embed's color as #RRGGBB; null for the style's own" }),
    channel_id: ChannelId,
    style: z.enum(ROLE_MENU_STYLES, { error: `style must be ${ROLE_MENU_STYLES.join(', ')}` }),
    mode: z.enum(ROLE_MENU_MODES, { error: `mode must be ${ROLE_MENU_MODES.join(', ')}` }),
    max_roles: z
      .number({ error: 'max_roles must be a whole number' })
      .int('max_roles must be a whole number')
      .nullable()
      .default(null)
      .meta({
        description: 'For mode limit: how many roles of the menu a member may hold (1 to the options)',
      }),
    required_role_id: z
      .string({ error: REQUIRED_ROLE_MESSAGE })
      .regex(SNOWFLAKE_PATTERN, REQUIRED_ROLE_MESSAGE)
      .nullable()
      .default(null)
      .meta({ description: 'Members without this role are refused, with an answer naming it' }),
    options: z
      .array(RoleMenuOptionInput, { error: 'options must be a list of options' })
      .min(1, 'options: a menu needs at least one option'),
  })
  .superRefine((menu, ctx) => {
    const max = ROLE_MENU_MAX_OPTIONS[menu.style];
    if (menu.options.length > max) {
      ctx.addIssue({
        code: 'custom',
        path: ['options'],
        message: `options: ${STYLE_WORDS[menu.style].toLowerCase()} holds at most ${max} options (this one has ${menu.options.length})`,
      });
    }
    if (menu.mode === 'limit') {
      const count = menu.options.length;
      if (menu.max_roles === null || menu.max_roles < 1 || menu.max_roles > count) {
        ctx.addIssue({
          code: 'custom',
          path: ['max_roles'],
          message: `max_roles: a limit menu needs max_roles from 1 to ${count} (its number of options)`,
        });
      }
    }
    const roles = new Map<string, number>();
    const emojis = new Map<string, number>();
    menu.options.forEach((option, index) => {
      const name = ROLE_MENU_MESSAGES.option(index);
      const roleId = option.role_id.trim();
      const sameRole = roleId === '' ? undefined : roles.get(roleId);
      if (sameRole !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'role_id'],
          message: `${name}: option ${sameRole + 1} already gives this role; each role can have one option`,
        });
      else if (roleId !== '') roles.set(roleId, index);
      // A reaction stays on the panel after the role expired, and would give it back.
      if (menu.style === 'reactions' && option.expires_after_s !== undefined)
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'expires_after_s'],
          message: `${name}: a temporary role (expires_after_s) is for buttons and select menus, not reactions`,
        });
      const emojiText = option.emoji?.trim() ?? '';
      const label = option.label?.trim() ?? '';
      if (menu.style !== 'reactions' && label === '') {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'label'],
          message: `${name}: a label is required (it is what the ${menu.style === 'buttons' ? 'button' : 'select option'} says)`,
        });
      }
      if (emojiText === '') {
        if (menu.style === 'reactions')
          ctx.addIssue({
            code: 'custom',
            path: ['options', index, 'emoji'],
            message: `${name}: an emoji is required (members react with it)`,
          });
        return;
      }
      const emoji = parseMenuEmoji(emojiText);
      if (!emoji) {
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'emoji'],
          message: `${name}: emoji must be one emoji, or a custom emoji of this server as <:name:id>`,
        });
        return;
      }
      const key = menuEmojiKey(emoji);
      const first = emojis.get(key);
      if (first === undefined) emojis.set(key, index);
      else if (menu.style === 'reactions')
        ctx.addIssue({
          code: 'custom',
          path: ['options', index, 'emoji'],
          message: `${name}: ${emojiText} is already used by option ${first + 1}; each emoji can stand for one role`,
        });
    });
  })
  .meta({ id: 'RoleMenuBody' });
export type RoleMenuBody = z.input<typeof RoleMenuBody>;
export type RoleMenuInput = z.output<typeof RoleMenuBody>;

export const RoleMenuOption = z.object({
  role_id: Snowflake,
  label: z.string().optional(),
  emoji: z.string().optional(),
  description: z.string().optional(),
  expires_after_s: z.number().int().optional(),
});
export type RoleMenuOption = z.infer<typeof RoleMenuOption>;

export const RoleMenu = z
  .object({
    id: z.string(),
    title: z.string(),
    description: z.string(),
    color: z.string().nullable(),
    channel_id: Snowflake.nullable(),
    style: RoleMenuStyle,
    mode: RoleMenuMode,
    max_roles: z.number().int().nullable(),
    required_role_id: Snowflake.nullable(),
    options: z.array(RoleMenuOption),
    /** Where the menu is posted now (null: not posted). */
    posted: ReactionPanelLocation.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'RoleMenu' });
export type RoleMenu = z.infer<typeof RoleMenu>;

export const RoleMenuList = z.object({ menus: z.array(RoleMenu) }).meta({ id: 'RoleMenuList' });
export type RoleMenuList = z.infer<typeof RoleMenuList>;

/** A menu's id: the uuid `role_menus.id` holds. */
export const RoleMenuId = z
  .string()
  .regex(
    /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/,
    'Expected a role menu id (a UUID)',
  );

export const RoleMenuParams = z.object({ guildId: Snowflake, menuId: RoleMenuId });
