import { type APIActionRowComponent, type APIComponentInMessageActionRow, MessageFlags } from 'discord.js';
import type { PanelInteraction } from './types.ts';

export interface EphemeralAnswer {
  content: string;
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

/**
 * Discord wants a first answer within 3 seconds of the click. Work that finishes in time is
 * answered in one call; slower work (rate-limited role changes) is deferred DEFER_AFTER_MS after
 * the click (counted from the interaction's creation, so time spent before it reached us counts
 * too) and the answer edited in when ready.
 */
const DEFER_AFTER_MS = 1_500;

/** Milliseconds since Discord created the interaction (its snowflake carries the time). */
export function interactionAgeMs(interaction: { createdTimestamp: number }): number {
  return Date.now() - interaction.createdTimestamp;
}

export async function answerEphemeral(
  interaction: PanelInteraction,
  work: () => Promise<EphemeralAnswer>,
): Promise<void> {
  let deferral: Promise<unknown> | undefined;
  const deferIn = Math.min(DEFER_AFTER_MS, Math.max(0, DEFER_AFTER_MS - interactionAgeMs(interaction)));
  const timer = setTimeout(() => {
    deferral = interaction.deferReply({ flags: MessageFlags.Ephemeral });
  }, deferIn);
  let answer: EphemeralAnswer;
  try {
    answer = await work();
  } finally {
    clearTimeout(timer);
    // Let a deferral in flight land, so an error answer knows to follow up instead of reply.
    await deferral?.catch(() => {});
  }
  if (interaction.deferred) {
    await interaction.editReply({ content: answer.content, components: answer.components ?? [] });
  } else {
    await interaction.reply({
      content: answer.content,
      components: answer.components ?? [],
      flags: MessageFlags.Ephemeral,
    });
  }
}
