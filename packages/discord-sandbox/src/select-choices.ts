import type { APIMessage } from 'discord-api-types/v10';

/**
 * What each member's Discord client shows as chosen in a message's select menus. A client keeps
 * showing the options a member chose after the interaction is answered (a private reply leaves
 * the message as it was), and sends no interaction when the member chooses exactly what is shown
 * already; an edit of the message (REST, or an interaction's UPDATE_MESSAGE answer) draws it
 * again, which clears every member's choice. The sandbox refuses such a click as Discord's
 * client would never send it, so a bot that relies on "choose it again" without clearing fails
 * here as it would for real members.
 */
const shown = new WeakMap<APIMessage, Map<string, string>>();

function choiceKey(userId: string, customId: string): string {
  return `${userId}:${customId}`;
}

function valuesKey(values: readonly string[]): string {
  return JSON.stringify([...values].sort());
}

/** Whether the member's client shows exactly `values` as chosen in that select now. */
export function isShownChoice(
  message: APIMessage,
  userId: string,
  customId: string,
  values: readonly string[],
): boolean {
  return shown.get(message)?.get(choiceKey(userId, customId)) === valuesKey(values);
}

/** The member chose `values`: their client shows them until the message is drawn again. */
export function noteChoice(
  message: APIMessage,
  userId: string,
  customId: string,
  values: readonly string[],
): void {
  const choices = shown.get(message) ?? new Map<string, string>();
  choices.set(choiceKey(userId, customId), valuesKey(values));
  shown.set(message, choices);
}

/** The message was edited: every client draws it again, with no choice shown. */
export function clearChoices(message: APIMessage): void {
  shown.delete(message);
}
