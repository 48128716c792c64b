/**
 * The personality-roles question catalog. "Initialize" seeds these questions for a server,
 * "Generate Roles" creates one role per option, "Post" publishes one message per enabled
 * question built by `personalityComponents`.
 */
import type { PersonalityQuestionType } from '@spacecadet/contract';
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

export interface PersonalityOption {
  label: string;
  emoji: string | null;
}

export interface PersonalityQuestion {
  questionType: PersonalityQuestionType;
  title: string;
  description: string;
  isMultiSelect: boolean;
  options: PersonalityOption[];
}

const opt = (emoji: string, label: string): PersonalityOption => ({ label, emoji });

export const PERSONALITY_CATALOG: readonly PersonalityQuestion[] = [
  {
    questionType: 'age_range',
    title: 'Age Range',
    description: 'How old are you?',
    isMultiSelect: false,
    options: [
      opt('🧒', '13-15'),
      opt('🧑', '16-17'),
      opt('🎓', '18-20'),
      opt('💼', '21-24'),
      opt('🧔', '25+'),
    ],
  },
  {
    questionType: 'zodiac',
    title: 'Zodiac Sign',
    description: 'What is your star sign?',
    isMultiSelect: false,
    options: [
      opt('♈', 'Aries'),
      opt('♉', 'Taurus'),
      opt('♊', 'Gemini'),
      opt('♋', 'Cancer'),
      opt('♌', 'Leo'),
      opt('♍', 'Virgo'),
      opt('♎', 'Libra'),
      opt('♏', 'Scorpio'),
      opt('♐', 'Sagittarius'),
      opt('♑', 'Capricorn'),
      opt('♒', 'Aquarius'),
      opt('♓', 'Pisces'),
    ],
  },
  {
    questionType: 'gaming_platform',
    title: 'Gaming Platforms',
    description: 'Where do you play?',
    isMultiSelect: true,
    options: [
      opt('🖥️', 'PC'),
      opt('🎮', 'PlayStation'),
      opt('🟩', 'Xbox'),
      opt('🍄', 'Nintendo Switch'),
      opt('📱', 'Mobile'),
      opt('🥽', 'VR'),
    ],
  },
  {
    questionType: 'hobbies',
    title: 'Hobbies',
    description: 'What do you enjoy doing?',
    isMultiSelect: true,
    options: [
      opt('🎨', 'Art'),
      opt('🎵', 'Music'),
      opt('📚', 'Reading'),
      opt('✍️', 'Writing'),
      opt('🎮', 'Gaming'),
      opt('⚽', 'Sports'),
      opt('🍳', 'Cooking'),
      opt('📷', 'Photography'),
      opt('💻', 'Coding'),
      opt('🎬', 'Movies & TV'),
      opt('🌸', 'Anime'),
      opt('✈️', 'Travel'),
    ],
  },
  {
    questionType: 'pronouns',
    title: 'Pronouns',
    description: 'Which pronouns do you use?',
    isMultiSelect: true,
    options: [
      opt('💙', 'He/Him'),
      opt('💗', 'She/Her'),
      opt('💛', 'They/Them'),
      opt('💜', 'Any Pronouns'),
      opt('❔', 'Ask Me'),
    ],
  },
  {
    questionType: 'gender',
    title: 'Gender',
    description: 'How do you identify?',
    isMultiSelect: false,
    options: [
      opt('♂️', 'Male'),
      opt('♀️', 'Female'),
      opt('⚧️', 'Non-binary'),
      opt('🌈', 'Genderfluid'),
      opt('🤐', 'Prefer not to say'),
    ],
  },
  {
    questionType: 'dm_status',
    title: 'DM Status',
    description: 'Can people message you directly?',
    isMultiSelect: false,
    options: [opt('✅', 'DMs Open'), opt('❓', 'Ask to DM'), opt('⛔', 'DMs Closed')],
  },
  {
    questionType: 'ping_roles',
    title: 'Ping Roles',
    description: 'Which notifications do you want?',
    isMultiSelect: true,
    options: [
      opt('📢', 'Announcements'),
      opt('🎉', 'Events'),
      opt('🎁', 'Giveaways'),
      opt('🆙', 'Server Updates'),
      opt('💬', 'Chat Revival'),
    ],
  },
  {
    questionType: 'music_genres',
    title: 'Music Genres',
    description: 'What do you listen to?',
    isMultiSelect: true,
    options: [
      opt('🎤', 'Pop'),
      opt('🎸', 'Rock'),
      opt('🎧', 'Hip-Hop'),
      opt('🎹', 'Electronic'),
      opt('🎷', 'Jazz'),
      opt('🎻', 'Classical'),
      opt('🤘', 'Metal'),
      opt('🤠', 'Country'),
      opt('💿', 'R&B'),
      opt('🌊', 'Lo-fi'),
      opt('🇰🇷', 'K-Pop'),
      opt('🌿', 'Indie'),
    ],
  },
  {
    questionType: 'mbti',
    title: 'MBTI Type',
    description: 'What is your personality type?',
    isMultiSelect: false,
    options: [
      'INTJ',
      'INTP',
      'ENTJ',
      'ENTP',
      'INFJ',
      'INFP',
      'ENFJ',
      'ENFP',
      'ISTJ',
      'ISFJ',
      'ESTJ',
      'ESFJ',
      'ISTP',
      'ISFP',
      'ESTP',
      'ESFP',
    ].map((label) => ({ label, emoji: null })),
  },
];

const catalogByType = new Map<string, PersonalityQuestion>(
  PERSONALITY_CATALOG.map((question) => [question.questionType, question]),
);

export function personalityQuestion(type: string): PersonalityQuestion | undefined {
  return catalogByType.get(type);
}

// customIds: `personality:<question_type>:<option position>` for buttons and
// `personality:<question_type>` for a select (values are option positions). Positions rather
// than labels keep ids short and survive label edits.
export type PersonalityAction =
  | { kind: 'button'; questionType: string; optionIndex: number }
  | { kind: 'select'; questionType: string };

export function parsePersonalityCustomId(customId: string): PersonalityAction | null {
  const match = /^personality:([a-z_]+)(?::(\d{1,3}))?$/.exec(customId);
  if (!match?.[1]) return null;
  if (match[2] === undefined) return { kind: 'select', questionType: match[1] };
  return { kind: 'button', questionType: match[1], optionIndex: Number(match[2]) };
}

/** Most options buttons can show: 5 rows of 5. */
const PERSONALITY_MAX_BUTTONS = DISCORD_LIMITS.actionRowsPerMessage * DISCORD_LIMITS.buttonsPerRow;

export interface PersonalityComponentInput {
  questionType: string;
  title: string;
  isMultiSelect: boolean;
  options: ReadonlyArray<{ label: string; emoji?: string | null }>;
}

/**
 * Buttons while every option fits (5 rows of 5, so mbti's 16 are buttons), else one select
 * menu. A select holds 25 options at most; a longer list is cut.
 */
export function personalityComponents(question: PersonalityComponentInput): DiscordActionRow[] {
  const options = question.options.slice(0, DISCORD_LIMITS.selectOptions);
  if (question.options.length <= PERSONALITY_MAX_BUTTONS) {
    const buttons: DiscordButton[] = options.map((option, index) => ({
      type: ComponentType.Button,
      style: ButtonStyle.Secondary,
      custom_id: `personality:${question.questionType}:${index}`,
      label: truncateForDiscord(option.label, DISCORD_LIMITS.buttonLabelLength),
      ...(option.emoji ? { emoji: { name: option.emoji } } : {}),
    }));
    return chunk(buttons, DISCORD_LIMITS.buttonsPerRow).map((components) => ({
      type: ComponentType.ActionRow,
      components,
    }));
  }
  const select: DiscordStringSelect = {
    type: ComponentType.StringSelect,
    custom_id: `personality:${question.questionType}`,
    placeholder: truncateForDiscord(`Choose your ${question.title}`, DISCORD_LIMITS.selectPlaceholderLength),
    // min 0 lets a member clear their choice; single choice allows one value.
    min_values: 0,
    max_values: question.isMultiSelect ? options.length : 1,
    options: options.map((option, index) => ({
      label: truncateForDiscord(option.label, DISCORD_LIMITS.selectOptionLabelLength),
      value: String(index),
      ...(option.emoji ? { emoji: { name: option.emoji } } : {}),
    })),
  };
  return [{ type: ComponentType.ActionRow, components: [select] }];
}

const PERSONALITY_ACCENT = 0x5865f2;

export function personalityEmbed(question: { title: string; description: string; isMultiSelect: boolean }) {
  const hint = question.isMultiSelect
    ? 'Pick as many as you like; click again to remove.'
    : 'Pick one; choosing another replaces it.';
  const embed: DiscordEmbed = {
    title: question.title,
    description: `${question.description}\n\n${hint}`,
    color: PERSONALITY_ACCENT,
  };
  return embed;
}
