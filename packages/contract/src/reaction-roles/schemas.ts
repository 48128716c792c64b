/**
 * Reaction roles: the editor's two lists (each one role menu of style `reactions`), the channel
 * each is posted in, and where the bot posted them. See core's `role-menus.ts` for the model.
 */
import { z } from 'zod';
import { ChannelId, Snowflake, Timestamp } from '../common.ts';
import { MESSAGES } from '../errors.ts';
import { SNOWFLAKE_DIGITS } from '../ids.ts';
import { NOT_BLANK, storableText, Text } from '../inputs.ts';
import { menuEmojiKey, parseMenuEmoji } from './emoji.ts';

export const ROLE_MENU_STYLES = ['reactions', 'buttons', 'select'] as const;
export const RoleMenuStyle = z.enum(ROLE_MENU_STYLES);
export type RoleMenuStyle = z.infer<typeof RoleMenuStyle>;

/**
 * normal: each pick toggles its role; unique: at most one role of the menu (picking another
 * swaps); verify: add only; drop: remove only; limit: at most `max_roles` roles of the menu.
 */
export const ROLE_MENU_MODES = ['normal', 'unique', 'verify', 'drop', 'limit'] as const;
export const RoleMenuMode = z.enum(ROLE_MENU_MODES);
export type RoleMenuMode = z.infer<typeof RoleMenuMode>;

/** The Reaction Roles editor's two lists. */
export const REACTION_LISTS = ['color_roles', 'personality_roles'] as const;
export const ReactionList = z.enum(REACTION_LISTS, {
  error: `list must be ${REACTION_LISTS.join(' or ')}`,
});
export type ReactionList = z.infer<typeof ReactionList>;

/** Discord's limit of distinct reactions on one message: a longer list continues in another. */
export const MAX_REACTIONS_PER_MESSAGE = 20;
/** The most rows one reaction list holds (two messages of 20 reactions). */
export const MAX_REACTION_LIST_ROWS = 40;

export const ReactionRoleEntry = z.object({
  emoji: z.string(),
  role_id: z.string(),
  label: z.string().max(80).optional(),
  description: z.string().max(100).optional(),
});
export type ReactionRoleEntry = z.infer<typeof ReactionRoleEntry>;

/** Where a list's panel is: the messages the bot posted, in order, and their channel. */
export const ReactionPanelLocation = z
  .object({ channel_id: Snowflake, message_ids: z.array(Snowflake) })
  .meta({ id: 'ReactionPanelLocation' });
export type ReactionPanelLocation = z.infer<typeof ReactionPanelLocation>;

const perList = <T extends z.ZodType>(schema: T) =>
  z.object({ color_roles: schema, personality_roles: schema });

export const ReactionRolesState = z
  .object({
    color_roles: z.array(ReactionRoleEntry),
    personality_roles: z.array(ReactionRoleEntry),
    /** The channel each list's panel goes to (null: none picked yet). */
    channels: perList(Snowflake.nullable()),
    /** Where each list's panel is posted now (null: not posted). */
    panels: perList(ReactionPanelLocation.nullable()),
    updated_at: Timestamp.nullable(),
    updated_by: z.string().nullable(),
  })
  .meta({ id: 'ReactionRoles' });
export type ReactionRolesState = z.infer<typeof ReactionRolesState>;

type IssuePath = { readonly path?: PropertyKey[] | undefined };
/** The 1-based row of an issue at `[list, index, field]`, for the messages below. */
const rowOf = (issue: IssuePath) => Number(issue.path?.[1] ?? 0) + 1;
const rowRequired = (issue: IssuePath) => MESSAGES.reactionRowRequired(rowOf(issue));
const rowRoleId = (issue: IssuePath) => `Row ${rowOf(issue)}: role_id must be a Discord role id`;
const rowEmoji = (issue: IssuePath) =>
  `Row ${rowOf(issue)}: emoji must be one emoji, or a custom emoji of this server as <:name:id>`;

/**
 * A row needs an emoji and a role id (spaces around the id are trimmed). The fields say so, so
 * OpenAPI shows it; zod gives a message function the issue's whole path, hence the row number.
 */
const ReactionRoleRowInput = z.object({
  emoji: storableText({ error: rowRequired })
    .max(64)
    .regex(NOT_BLANK, { error: rowRequired })
    .refine((text) => parseMenuEmoji(text) !== null, { error: rowEmoji })
    .meta({
      description:
        'One unicode emoji, or a custom emoji of this server as <:name:id>, <a:name:id> or name:id; each emoji at most once per list',
    }),
  role_id: storableText({ error: rowRequired })
    .max(32)
    .regex(NOT_BLANK, { error: rowRequired })
    .regex(new RegExp(`^\\s*${SNOWFLAKE_DIGITS}\\s*$`), { error: rowRoleId }),
  label: Text.max(80).optional(),
  description: Text.max(100).optional(),
});

const LIST_WORDS: Record<ReactionList, string> = {
  color_roles: 'color roles',
  personality_roles: 'personality roles',
};

/** How a refusal names a row: `Color roles row 3` (rows count from 1, as the editor shows them). */
export function reactionRowName(list: ReactionList, index: number): string {
  const words = LIST_WORDS[list];
  return `${words.charAt(0).toUpperCase()}${words.slice(1)} row ${index + 1}`;
}

const MOVE_MY_ROLE = 'in Server Settings → Roles, or pick another role';

/**
 * The PUT's refusals that need the server (Discord's view of it), each naming the list and row.
 * `row` is `reactionRowName(list, index)`.
 */
export const REACTION_ROW_MESSAGES = {
  roleAboveBot: (row: string, role: string, botRole: string) =>
    `${row}: @${role} is above my highest role (${botRole}); move my role above it ${MOVE_MY_ROLE}`,
  roleIsBotsHighest: (row: string, role: string) =>
    `${row}: @${role} is my highest role, and I can only give roles below it; move my role above it ${MOVE_MY_ROLE}`,
  botHasNoRole: (row: string, role: string) =>
    `${row}: @${role} is above my roles (I have none yet); give me a role above it ${MOVE_MY_ROLE}`,
  managedRole: (row: string, role: string) =>
    `${row}: @${role} belongs to an integration (a bot's or a subscription's own role), and Discord lets no one give it; pick another role`,
  foreignEmoji: (row: string, emoji: string) =>
    `${row}: ${emoji} is not an emoji of this server; pick one of its own emojis or a standard one`,
} as const;

/** Why Post / Update panels has nothing to post (400, no job queued). */
export const REACTION_PANEL_MESSAGES = {
  noRows: 'Add a row to a list and pick its channel first: there is nothing to post yet',
  noChannel: 'Pick a channel for a list with rows first',
} as const;

/**
 * One list: at most MAX_REACTION_LIST_ROWS rows, no emoji twice (each reaction is one row), no
 * role twice (two reactions for one role: unreacting either would take it away).
 */
const reactionListInput = (list: ReactionList) =>
  z
    .array(ReactionRoleRowInput)
    .max(MAX_REACTION_LIST_ROWS, `At most ${MAX_REACTION_LIST_ROWS} ${LIST_WORDS[list]}`)
    .superRefine((rows, ctx) => {
      const seen = new Map<string, number>();
      const roles = new Map<string, number>();
      rows.forEach((row, index) => {
        // A blank role is the row's own problem (required), not a second use of one role.
        const roleId = row.role_id.trim();
        const sameRole = roleId === '' ? undefined : roles.get(roleId);
        if (sameRole !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'role_id'],
            message: `Row ${index + 1}: row ${sameRole + 1} already gives this role; each role can have one row`,
          });
        else if (roleId !== '') roles.set(roleId, index);
        const emoji = parseMenuEmoji(row.emoji);
        if (!emoji) return;
        const key = menuEmojiKey(emoji);
        const first = seen.get(key);
        if (first === undefined) seen.set(key, index);
        else
          ctx.addIssue({
            code: 'custom',
            path: [index, 'emoji'],
            message: `Row ${index + 1}: ${row.emoji.trim()} is already used by row ${first + 1}; each emoji can stand for one role`,
          });
      });
    });

export const PutReactionRolesBody = z
  .object({
    color_roles: reactionListInput('color_roles'),
    personality_roles: reactionListInput('personality_roles'),
  })
  .meta({ id: 'PutReactionRolesBody' });
export type PutReactionRolesBody = z.infer<typeof PutReactionRolesBody>;

export const ReactionListChannelBody = z
  .object({ list: ReactionList, channel_id: ChannelId })
  .meta({ id: 'ReactionListChannelBody' });
export type ReactionListChannelBody = z.infer<typeof ReactionListChannelBody>;

export const ReactionListChannel = z.object({ list: ReactionList, channel_id: Snowflake });
export type ReactionListChannel = z.infer<typeof ReactionListChannel>;
