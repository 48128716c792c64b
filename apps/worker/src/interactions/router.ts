import { type Interaction, MessageFlags, type RepliableInteraction } from 'discord.js';
import type { WorkerDeps } from '../deps.ts';
import { errorFields } from '../logger.ts';
import { clickArrived, clickRecorded } from './arriving-clicks.ts';
import { editAnswer, followUpEphemeral, interactionAgeMs } from './respond.ts';
import type { ComponentRoute, SlashCommand } from './types.ts';

export const GENERIC_ERROR_MESSAGE = 'Something went wrong, try again.';
/** Discord accepts the first answer to an interaction until this long after it was created. */
export const INTERACTION_ANSWER_WINDOW_MS = 3_000;
const UNKNOWN_COMPONENT_MESSAGE = 'This panel is out of date. Ask an admin to post it again.';

export interface InteractionRoutes {
  components: readonly ComponentRoute[];
  commands: readonly SlashCommand[];
}

/**
 * Sends every interaction to the feature that owns it. One failing handler is logged and the
 * member gets an ephemeral error; it never rejects, so it cannot take the process down.
 */
export async function routeInteraction(
  interaction: Interaction,
  routes: InteractionRoutes,
  deps: WorkerDeps,
): Promise<void> {
  const log = deps.logger.child({ interactionId: interaction.id, guildId: interaction.guildId });
  // An interaction delivered after its window (replayed after a gateway RESUME, say) can no
  // longer be answered: Discord already showed the member "This interaction failed" and would
  // refuse any answer with 10062. Acting on it anyway would change roles behind their back.
  const ageMs = interactionAgeMs(interaction);
  if (ageMs > INTERACTION_ANSWER_WINDOW_MS) {
    log.info({ ageMs, kind: interaction.type }, 'interaction skipped: delivered after its answer window');
    return;
  }
  try {
    if (interaction.isChatInputCommand()) {
      const command = routes.commands.find((candidate) => candidate.data.name === interaction.commandName);
      if (!command) {
        await interaction.reply({ content: UNKNOWN_COMPONENT_MESSAGE, flags: MessageFlags.Ephemeral });
        return;
      }
      await command.execute(interaction, deps);
      return;
    }
    if (interaction.isButton() || interaction.isStringSelectMenu()) {
      const route = routes.components.find((candidate) => interaction.customId.startsWith(candidate.prefix));
      if (!route) {
        log.warn({ customId: interaction.customId }, 'no route for component');
        await interaction.reply({ content: UNKNOWN_COMPONENT_MESSAGE, flags: MessageFlags.Ephemeral });
        return;
      }
      // Known before anything is awaited: the member's older clicks wait for its pick.
      clickArrived(interaction);
      try {
        await route.handle(interaction, deps);
      } finally {
        clickRecorded(interaction);
      }
    }
  } catch (error) {
    log.error({ ...errorFields(error), kind: interaction.type }, 'interaction handler failed');
    if (interaction.isRepliable()) await answerWithError(interaction, log);
  }
}

async function answerWithError(interaction: RepliableInteraction, log: WorkerDeps['logger']): Promise<void> {
  try {
    // After the first answer, through the interaction webhook (never behind role changes).
    if (interaction.deferred && !interaction.replied) {
      // Replace the "thinking…" state the member is looking at.
      await editAnswer(interaction, { content: GENERIC_ERROR_MESSAGE, components: [] });
    } else if (interaction.replied) {
      await followUpEphemeral(interaction, GENERIC_ERROR_MESSAGE);
    } else {
      await interaction.reply({ content: GENERIC_ERROR_MESSAGE, flags: MessageFlags.Ephemeral });
    }
  } catch (error) {
    // The interaction may have expired; nothing more can be said to the member.
    log.warn(errorFields(error), 'could not send the error answer');
  }
}
