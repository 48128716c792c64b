/**
 * The message the bot posts for one personality question: its embed, its option buttons (or a
 * select menu when they do not fit) and a "Clear my answer" control. The worker posts it and
 * the refresh compares Discord's copy with it, so both read it from here.
 */
import { parseMenuEmoji } from '@spacecadet/contract';
import {
  ButtonStyle,
  ComponentType,
  chunk,
  DISCORD_LIMITS,
  type DiscordActionRow,
  type DiscordButton,
  type DiscordEmbed,
  type DiscordStringSelect,
  truncateForDiscord,
} from './discord-components.ts';

// customIds: `personality:<key>:o<option id>` for an option button, `personality:<key>` for the
// select (its values are `o<option id>`) and `personality:<key>:clear` for the clear button. The
// key is the question's (`question_type`: a template's type, or `q<id>` for an own question).
// Option ids survive label edits, removals and reordering; messages posted before options had
// ids in them name options by position (`personality:<key>:3`, select values `3`), still read.
const PREFIX = 'personality:';
export const PERSONALITY_CUSTOM_ID_PREFIX = PREFIX;

/** Which option a button or select value names: its id, or (older messages) its position. */
export type PersonalityOptionRef = { id: number } | { index: number };

export type PersonalityAction =
  | { kind: 'button'; questionType: string; option: PersonalityOptionRef }
  | { kind: 'select'; questionType: string }
  | { kind: 'clear'; questionType: string };

/** A select value or button suffix: `o<id>` or a position; null for anything else. */
export function parsePersonalityOptionRef(value: string): PersonalityOptionRef | null {
  const byId = /^o(\d{1,10})$/.exec(value);
  if (byId) return { id: Number(byId[1]) };
  return /^\d{1,3}$/.test(value) ? { index: Number(value) } : null;
}

export function parsePersonalityCustomId(customId: string): PersonalityAction | null {
  const match = /^personality:([a-z0-9_]{1,40})(?::(o\d{1,10}|\d{1,3}|clear))?$/.exec(customId);
  if (!match?.[1]) return null;
  const questionType = match[1];
  if (match[2] === undefined) return { kind: 'select', questionType };
  if (match[2] === 'clear') return { kind: 'clear', questionType };
  const option = parsePersonalityOptionRef(match[2]);
  return option ? { kind: 'button', questionType, option } : null;
}

/** The custom_id of every component of a question's message starts with this. */
export function personalityCustomIdPrefix(questionType: string): string {
  return `${PREFIX}${questionType}`;
}

/** How a button's id and a select value name an option: by id once stored, by position in a preview. */
function optionRef(option: { id?: number | undefined }, index: number): string {
  return option.id === undefined ? String(index) : `o${option.id}`;
}

/** An option's emoji as a component takes it (unicode, or a custom emoji by id); none when unreadable. */
function componentEmoji(text: string | null | undefined) {
  const emoji = text ? parseMenuEmoji(text) : null;
  if (!emoji) return {};
  return {
    emoji:
      emoji.id === null ? { name: emoji.name } : { id: emoji.id, name: emoji.name, animated: emoji.animated },
  };
}

/**
 * Options shown as buttons at most: every row but the last, which holds the controls. A longer
 * list becomes one select menu (25 options at most; Discord's limit).
 */
export const PERSONALITY_MAX_BUTTONS =
  (DISCORD_LIMITS.actionRowsPerMessage - 1) * DISCORD_LIMITS.buttonsPerRow;

export const PERSONALITY_CLEAR_LABEL = 'Clear my answer';

export interface PersonalityComponentInput {
  questionType: string;
  title: string;
  isMultiSelect: boolean;
  /** `id`: the stored option's (absent in a preview of options not saved yet). */
  options: ReadonlyArray<{ id?: number; label: string; emoji?: string | null }>;
}

/** True when the question's options are shown as buttons, false for a select menu. */
export function personalityUsesButtons(optionCount: number): boolean {
  return optionCount <= PERSONALITY_MAX_BUTTONS;
}

/**
 * Buttons while every option fits (4 rows of 5, so mbti's 16 are buttons), else one select
 * menu; then a row with the clear button. The select allows 0 picks, so a member can also clear
 * it there; single choice allows 1, multi-select every option.
 */
export function personalityComponents(question: PersonalityComponentInput): DiscordActionRow[] {
  const prefix = personalityCustomIdPrefix(question.questionType);
  const clear: DiscordActionRow = {
    type: ComponentType.ActionRow,
    components: [
      {
        type: ComponentType.Button,
        style: ButtonStyle.Danger,
        custom_id: `${prefix}:clear`,
        label: PERSONALITY_CLEAR_LABEL,
      },
    ],
  };
  if (personalityUsesButtons(question.options.length)) {
    const buttons: DiscordButton[] = question.options.map((option, index) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: `${prefix}:${optionRef(option, index)}`,
      label: truncateForDiscord(option.label, DISCORD_LIMITS.buttonLabelLength),
      ...componentEmoji(option.emoji),
    }));
    const rows = chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map(
      (components): DiscordActionRow => ({ type: ComponentType.ActionRow, components }),
    );
    return [...rows, clear];
  }
  const options = question.options.slice(0, DISCORD_LIMITS.selectOptions);
  const select: DiscordStringSelect = {
    type: ComponentType.StringSelect,
    custom_id: prefix,
    placeholder: truncateForDiscord(`Choose your ${question.title}`, DISCORD_LIMITS.selectPlaceholderLength),
    min_values: 0,
    max_values: question.isMultiSelect ? options.length : 1,
    options: options.map((option, index) => ({
      label: truncateForDiscord(option.label, DISCORD_LIMITS.selectOptionLabelLength),
      value: optionRef(option, index),
      ...componentEmoji(option.emoji),
    })),
  };
  return [{ type: ComponentType.ActionRow, components: [select] }, clear];
}

const PERSONALITY_ACCENT = 0x5865f2;
const EMBED_TITLE_LENGTH = 256;
const EMBED_DESCRIPTION_LENGTH = 4096;

export function personalityEmbed(question: {
  title: string;
  description: string;
  isMultiSelect: boolean;
}): DiscordEmbed {
  const hint = question.isMultiSelect
    ? 'Pick as many as you like; click again to remove.'
    : 'Pick one; choosing another replaces it.';
  return {
    title: truncateForDiscord(question.title, EMBED_TITLE_LENGTH),
    description: truncateForDiscord(
      question.description ? `${question.description}\n\n${hint}` : hint,
      EMBED_DESCRIPTION_LENGTH,
    ),
    color: PERSONALITY_ACCENT,
  };
}

export interface PersonalityMessageInput extends PersonalityComponentInput {
  description: string;
}

export interface PersonalityMessage {
  content: string;
  embeds: DiscordEmbed[];
  components: DiscordActionRow[];
}

/** The whole message body the bot posts (or edits in) for one question. */
export function buildPersonalityMessage(question: PersonalityMessageInput): PersonalityMessage {
  return { content: '', embeds: [personalityEmbed(question)], components: personalityComponents(question) };
}

interface MessageLike {
  content?: string | null;
  embeds?: ReadonlyArray<{ title?: string; description?: string; color?: number }> | null;
  components?: ReadonlyArray<object> | null;
}

/**
 * What a member sees of a question message, as one string: the embed's text and colour, and
 * each component's id, label, emoji and options. A message Discord returns and a body we built
 * give the same string exactly when they show the same thing (Discord adds fields of its own,
 * which are left out), so the refresh edits a message only when it went stale.
 */
export function personalityMessageSignature(message: MessageLike): string {
  const embeds = (message.embeds ?? []).map((embed) => [
    embed.title ?? '',
    embed.description ?? '',
    embed.color ?? 0,
  ]);
  const rows = (message.components ?? []).map((row) =>
    ('components' in row && Array.isArray(row.components) ? (row.components as unknown[]) : []).map(
      (component) => {
        const c = component as {
          type?: number;
          style?: number;
          custom_id?: string;
          label?: string;
          emoji?: { id?: string | null; name?: string | null } | null;
          min_values?: number;
          max_values?: number;
          placeholder?: string;
          options?: ReadonlyArray<{
            label?: string;
            value?: string;
            emoji?: { id?: string | null; name?: string | null } | null;
          }>;
        };
        return [
          c.type ?? 0,
          c.style ?? 0,
          c.custom_id ?? '',
          c.label ?? '',
          c.emoji?.id ?? c.emoji?.name ?? '',
          c.placeholder ?? '',
          c.min_values ?? null,
          c.max_values ?? null,
          (c.options ?? []).map((o) => [o.label ?? '', o.value ?? '', o.emoji?.id ?? o.emoji?.name ?? '']),
        ];
      },
    ),
  );
  return JSON.stringify([message.content ?? '', embeds, rows]);
}
