import {
  type APIActionRowComponent,
  type APIComponentInMessageActionRow,
  MessageFlags,
  type RepliableInteraction,
} from 'discord.js';
import { interactionAnswerApi } from '../discord-rest.ts';
import type { PanelInteraction } from './types.ts';

export interface EphemeralAnswer {
  content: string;
  components?: APIActionRowComponent<APIComponentInMessageActionRow>[];
}

/**
 * Called by a click's work right before a call that counts against the bot's global limit of 50
 * requests a second (a role change): the click is acknowledged at once (an ephemeral "thinking…"
 * the answer is later edited into), so the member never waits behind queued role changes.
 * Idempotent: the first call defers, later ones wait for that deferral.
 */
export type DeferFirst = () => Promise<void>;

/**
 * Discord wants a first answer within 3 seconds of the click. Work that makes no rate-limited
 * call is answered in one call; work that does is acknowledged first (`deferAtOnce`, or
 * `deferFirst` before the call). Should other work be slow (a database stall), the click is
 * deferred DEFER_AFTER_MS after it was made (counted from the interaction's creation, so time
 * spent before it reached us counts too).
 */
const DEFER_AFTER_MS = 1_500;

/** Milliseconds since Discord created the interaction (its snowflake carries the time). */
export function interactionAgeMs(interaction: { createdTimestamp: number }): number {
  return Date.now() - interaction.createdTimestamp;
}

export interface AnswerOptions {
  /**
   * The click is expected to change roles (a colour or personality pick): acknowledge it as it
   * arrives, while `work` reads what it needs, rather than when `work` calls `deferFirst`. Its
   * first answer then costs neither a database nor a Redis round trip, however busy those are.
   */
  deferAtOnce?: boolean;
}

/**
 * Answers a click with an ephemeral message computed by `work`: in one call, or as a deferral
 * (`deferAtOnce`, `deferFirst`, or the 1.5 s safety net) edited into the answer once `work` is
 * done. A `work` that throws leaves the answer to the router ("Something went wrong").
 */
export async function answerEphemeral(
  interaction: PanelInteraction,
  work: (deferFirst: DeferFirst) => Promise<EphemeralAnswer>,
  options: AnswerOptions = {},
): Promise<void> {
  let deferral: Promise<void> | undefined;
  const deferFirst: DeferFirst = () => {
    deferral ??= interaction.deferReply({ flags: MessageFlags.Ephemeral }).then(() => {});
    return deferral;
  };
  // A failed deferral is seen by the work (when it calls deferFirst) or after it, below.
  if (options.deferAtOnce) deferFirst().catch(() => {});
  const deferIn = Math.min(DEFER_AFTER_MS, Math.max(0, DEFER_AFTER_MS - interactionAgeMs(interaction)));
  const timer = setTimeout(() => {
    deferFirst().catch(() => {});
  }, deferIn);
  let answer: EphemeralAnswer;
  try {
    answer = await work(deferFirst);
  } finally {
    clearTimeout(timer);
    // Let a deferral in flight land, so the answer (or an error answer) knows to edit it.
    await deferral?.catch(() => {});
  }
  if (interaction.deferred) {
    await editAnswer(interaction, { content: answer.content, components: answer.components ?? [] });
  } else {
    await interaction.reply({
      content: answer.content,
      components: answer.components ?? [],
      flags: MessageFlags.Ephemeral,
    });
  }
}

/** Edits the deferred (or first) answer of `interaction`. */
export async function editAnswer(interaction: RepliableInteraction, answer: EphemeralAnswer): Promise<void> {
  await interactionAnswerApi(interaction.client).interactions.editReply(
    interaction.applicationId,
    interaction.token,
    { content: answer.content, components: answer.components ?? [] },
  );
}

/** One more ephemeral message after the interaction has been answered. */
export async function followUpEphemeral(interaction: RepliableInteraction, content: string): Promise<void> {
  await interactionAnswerApi(interaction.client).webhooks.execute(
    interaction.applicationId,
    interaction.token,
    {
      content,
      flags: MessageFlags.Ephemeral,
    },
  );
}
