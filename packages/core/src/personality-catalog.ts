/**
 * The personality-roles question catalog. "Initialize" seeds these questions for a server,
 * "Generate Roles" creates one role per option, "Post" publishes one message per enabled
 * question built by `personalityComponents`.
 */
import type { PersonalityQuestionType } from '@spacecadet/contract';

/** How often the bot repairs each server's setup ("refreshed every 5 minutes", the page says). */
export const PERSONALITY_REFRESH_INTERVAL_MS = 5 * 60_000;

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
