import {
  MAX_ROLE_MENUS,
  parseMenuEmoji,
  ROLE_MENU_MAX_OPTIONS,
  ROLE_MENU_MESSAGES,
  type RoleMenu,
  RoleMenuBody,
  type RoleMenuMode,
  type RoleMenuStyle,
} from '@spacecadet/contract';
import type { RoleMenuLayoutInput } from '@spacecadet/core';

/** One option row of the editor; `key` tells rows apart while they are reordered. */
export interface OptionDraft {
  key: number;
  role_id: string;
  label: string;
  emoji: string;
  description: string;
  /**
   * A temporary option's seconds (set through the API; the editor has no field for it yet): kept
   * as it is so a save from the editor does not drop it.
   */
  expires_after_s?: number | undefined;
}

/** The editor's menu: every field as typed (blank color and required role mean none). */
export interface MenuDraft {
  title: string;
  description: string;
  color: string;
  channel_id: string;
  style: RoleMenuStyle;
  mode: RoleMenuMode;
  max_roles: string;
  required_role_id: string;
  options: OptionDraft[];
}

export type OptionField = 'role_id' | 'label' | 'emoji' | 'description';

let nextKey = 1;
export const emptyOption = (): OptionDraft => ({
  key: nextKey++,
  role_id: '',
  label: '',
  emoji: '',
  description: '',
});

export function emptyDraft(): MenuDraft {
  return {
    title: '',
    description: '',
    color: '',
    channel_id: '',
    style: 'buttons',
    mode: 'normal',
    max_roles: '',
    required_role_id: '',
    options: [emptyOption()],
  };
}

export function draftFromMenu(menu: RoleMenu): MenuDraft {
  return {
    title: menu.title,
    description: menu.description,
    color: menu.color ?? '',
    channel_id: menu.channel_id ?? '',
    style: menu.style,
    mode: menu.mode,
    max_roles: menu.max_roles === null ? '' : String(menu.max_roles),
    required_role_id: menu.required_role_id ?? '',
    options: menu.options.map((option) => ({
      key: nextKey++,
      role_id: option.role_id,
      label: option.label ?? '',
      emoji: option.emoji ?? '',
      description: option.description ?? '',
      ...(option.expires_after_s === undefined ? {} : { expires_after_s: option.expires_after_s }),
    })),
  };
}

/** `#RRGGBB` of a typed color (with or without `#`), or null when it is not one. */
export function normalizeHex(text: string): string | null {
  const match = /^#?([0-9a-f]{6})$/i.exec(text.trim());
  return match?.[1] ? `#${match[1].toUpperCase()}` : null;
}

/** The body POST and PUT take: text trimmed, blank optional fields left out. */
export function bodyFromDraft(draft: MenuDraft): RoleMenuBody {
  const color = draft.color.trim();
  const maxRoles = draft.max_roles.trim();
  return {
    title: draft.title.trim(),
    description: draft.description.trim(),
    color: color === '' ? null : (normalizeHex(color) ?? color),
    channel_id: draft.channel_id.trim(),
    style: draft.style,
    mode: draft.mode,
    max_roles: draft.mode !== 'limit' || maxRoles === '' ? null : Number(maxRoles),
    required_role_id: draft.required_role_id.trim() || null,
    options: draft.options.map((option) => ({
      role_id: option.role_id.trim(),
      ...(option.label.trim() ? { label: option.label.trim() } : {}),
      ...(option.emoji.trim() ? { emoji: option.emoji.trim() } : {}),
      ...(option.description.trim() ? { description: option.description.trim() } : {}),
      // Reactions give a role for as long as the reaction stays: no lifetime (the editor hides it).
      ...(option.expires_after_s === undefined || draft.style === 'reactions'
        ? {}
        : { expires_after_s: option.expires_after_s }),
    })),
  };
}

/** Whether the draft differs from the saved menu (null: a new menu, always unsaved). */
export function isDirty(draft: MenuDraft, saved: RoleMenu | null): boolean {
  if (!saved) return true;
  return JSON.stringify(bodyFromDraft(draft)) !== JSON.stringify(bodyFromDraft(draftFromMenu(saved)));
}

/** What core's layout needs to draw the draft, as the bot would post it once saved. */
export function layoutFromDraft(draft: MenuDraft, menuId: string | null): RoleMenuLayoutInput {
  const body = bodyFromDraft(draft);
  const color = normalizeHex(draft.color);
  const maxRoles = Number(draft.max_roles);
  return {
    id: menuId ?? 'preview',
    title: body.title,
    description: body.description ?? '',
    color: color === null ? null : Number.parseInt(color.slice(1), 16),
    style: body.style,
    mode: body.mode,
    max_roles: body.mode === 'limit' && Number.isInteger(maxRoles) && maxRoles > 0 ? maxRoles : null,
    options: body.options,
  };
}

/**
 * A refusal at the place it names: `title`, `max_roles`, `options` (the list as a whole) or
 * `options.N.field` (N counting from 0, as the API's and the schema's paths do).
 */
export interface FieldProblem {
  path: string;
  message: string;
}

/** The problems the contract's own body schema finds, in its words (the API's), one a field. */
export function validateDraft(draft: MenuDraft): FieldProblem[] {
  const parsed = RoleMenuBody.safeParse(bodyFromDraft(draft));
  if (parsed.success) return [];
  return firstPerPath(
    parsed.error.issues.map((issue) => ({ path: issue.path.join('.'), message: issue.message })),
  );
}

/** The first problem of each path, in order. */
export function firstPerPath(problems: readonly FieldProblem[]): FieldProblem[] {
  const seen = new Set<string>();
  return problems.filter((problem) => {
    if (seen.has(problem.path)) return false;
    seen.add(problem.path);
    return true;
  });
}

/** Problems by path, for the fields to show their own. */
export function problemsByPath(problems: readonly FieldProblem[]): ReadonlyMap<string, string> {
  return new Map(firstPerPath(problems).map((problem) => [problem.path, problem.message]));
}

/** An option field's path, as a refusal names it. */
export const optionPath = (index: number, field: OptionField) => `options.${index}.${field}`;

/** A typed emoji that is not one (blank waits for Save: only reactions need one). */
export function emojiProblem(emoji: string): string | null {
  const text = emoji.trim();
  return text === '' || parseMenuEmoji(text)
    ? null
    : 'Not one emoji: type one, or a custom emoji as <:name:id>';
}

export const STYLE_CHOICES: ReadonlyArray<{ value: RoleMenuStyle; label: string; detail: string }> = [
  {
    value: 'buttons',
    label: 'Buttons',
    detail: `A button for each option, 5 to a row (up to ${ROLE_MENU_MAX_OPTIONS.buttons}).`,
  },
  {
    value: 'select',
    label: 'Select menu',
    detail: `One drop-down menu listing the options (up to ${ROLE_MENU_MAX_OPTIONS.select}).`,
  },
  {
    value: 'reactions',
    label: 'Reactions',
    detail: `Members react with an option's emoji (up to ${ROLE_MENU_MAX_OPTIONS.reactions}, 20 to a message).`,
  },
];

export const MODE_CHOICES: ReadonlyArray<{ value: RoleMenuMode; label: string; detail: string }> = [
  { value: 'normal', label: 'Normal', detail: 'Each pick toggles its role: take as many as you like.' },
  { value: 'unique', label: 'Unique', detail: 'One role of the menu at a time: picking another swaps it.' },
  { value: 'verify', label: 'Verify', detail: 'Picks only add the role; it is never taken away.' },
  { value: 'drop', label: 'Drop', detail: 'Picks only remove the role.' },
  {
    value: 'limit',
    label: 'Limit',
    detail: 'Up to a number of roles of the menu; a pick past it is refused, saying the limit.',
  },
];

export const styleLabel = (style: RoleMenuStyle) =>
  STYLE_CHOICES.find((choice) => choice.value === style)?.label ?? style;
export const modeLabel = (mode: RoleMenuMode) =>
  MODE_CHOICES.find((choice) => choice.value === mode)?.label ?? mode;

const STYLE_HOLDS: Readonly<Record<RoleMenuStyle, string>> = {
  buttons: 'A menu of buttons holds',
  select: 'A select menu holds',
  reactions: 'A menu of reactions holds',
};

/** Why Add option is disabled: the style holds no more. */
export function optionLimitNote(style: RoleMenuStyle): string {
  return `${STYLE_HOLDS[style]} at most ${ROLE_MENU_MAX_OPTIONS[style]} options.`;
}

/** Why New menu is disabled. */
export const MENU_LIMIT_NOTE = `${ROLE_MENU_MESSAGES.tooMany}.`;
export { MAX_ROLE_MENUS };

/** Said beside Saved when the menu is posted: the API updates the posted message. */
export const POSTED_WILL_UPDATE = 'The posted message will update in Discord.';
export const UNSAVED_POST_NOTE = 'Unsaved changes: Post / Update posts the saved menu.';
export const NO_CHANNEL_NOTE = 'Pick a channel for this menu first (Edit).';

/** The question Delete asks first. */
export function deleteConfirmText(menu: Pick<RoleMenu, 'title' | 'posted'>): string {
  return menu.posted
    ? `Delete the menu "${menu.title}"? Its posted message will be deleted from Discord. Members keep the roles they picked.`
    : `Delete the menu "${menu.title}"? It was never posted. Members keep the roles they picked.`;
}

const channelName = (channelId: string, channels: ReadonlyArray<{ id: string; name: string }>) => {
  const channel = channels.find((item) => item.id === channelId);
  return channel ? `#${channel.name}` : `channel ${channelId}`;
};

export { channelName };

/** Where a menu is: "Posted in #roles", "Not posted yet", and whether Post moves it. */
export function menuLocationText(
  menu: Pick<RoleMenu, 'posted' | 'channel_id'>,
  channels: ReadonlyArray<{ id: string; name: string }>,
): string {
  if (!menu.posted) return 'Not posted yet';
  const count = menu.posted.message_ids.length;
  const where = `Posted in ${channelName(menu.posted.channel_id, channels)}${count > 1 ? ` (${count} messages)` : ''}`;
  return menu.channel_id && menu.channel_id !== menu.posted.channel_id
    ? `${where}; the next Update moves it to ${channelName(menu.channel_id, channels)}`
    : where;
}
