/**
 * Minimal wire shapes of Discord message components and embeds (API v10), kept here so
 * `core` stays dependency-free. Field names are Discord's (snake_case).
 */

export const ComponentType = { ActionRow: 1, Button: 2, StringSelect: 3 } as const;
export const ButtonStyle = { Primary: 1, Secondary: 2, Success: 3, Danger: 4 } as const;

/** Discord's own limits; the sandbox enforces the same ones. */
export const DISCORD_LIMITS = {
  actionRowsPerMessage: 5,
  buttonsPerRow: 5,
  selectOptions: 25,
  customIdLength: 100,
  buttonLabelLength: 80,
  selectOptionLabelLength: 100,
  selectOptionValueLength: 100,
  selectOptionDescriptionLength: 100,
  selectPlaceholderLength: 150,
} as const;

export interface DiscordEmoji {
  name: string;
  id?: string;
  /** A custom emoji that moves: Discord shows it still unless this says so. */
  animated?: boolean;
}

export interface DiscordButton {
  type: typeof ComponentType.Button;
  style: (typeof ButtonStyle)[keyof typeof ButtonStyle];
  custom_id: string;
  label: string;
  emoji?: DiscordEmoji;
  disabled?: boolean;
}

export interface DiscordSelectOption {
  label: string;
  value: string;
  description?: string;
  emoji?: DiscordEmoji;
  default?: boolean;
}

export interface DiscordStringSelect {
  type: typeof ComponentType.StringSelect;
  custom_id: string;
  placeholder?: string;
  min_values: number;
  max_values: number;
  options: DiscordSelectOption[];
}

/** A row holds up to 5 buttons or exactly one select menu. */
export interface DiscordActionRow<
  T extends DiscordButton | DiscordStringSelect = DiscordButton | DiscordStringSelect,
> {
  type: typeof ComponentType.ActionRow;
  components: T[];
}

export interface DiscordEmbed {
  title: string;
  description: string;
  color: number;
  footer?: { text: string };
}

/** Cuts a string to Discord's limit, marking the cut so a reader can tell. */
export function truncateForDiscord(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max - 1)}…`;
}

export function chunk<T>(items: readonly T[], size: number): T[][] {
  const rows: T[][] = [];
  for (let i = 0; i < items.length; i += size) rows.push(items.slice(i, i + size));
  return rows;
}
