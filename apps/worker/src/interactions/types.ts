import type {
  ButtonInteraction,
  ChatInputCommandInteraction,
  RESTPostAPIChatInputApplicationCommandsJSONBody,
  StringSelectMenuInteraction,
} from 'discord.js';
import type { WorkerDeps } from '../deps.ts';

export type PanelInteraction = ButtonInteraction | StringSelectMenuInteraction;

/** A feature's panel components, found by the custom_id prefix it owns (e.g. `color:`). */
export interface ComponentRoute {
  prefix: string;
  handle(interaction: PanelInteraction, deps: WorkerDeps): Promise<void>;
}

/** A slash command: its registration body and what it does. */
export interface SlashCommand {
  data: RESTPostAPIChatInputApplicationCommandsJSONBody;
  execute(interaction: ChatInputCommandInteraction, deps: WorkerDeps): Promise<void>;
}
