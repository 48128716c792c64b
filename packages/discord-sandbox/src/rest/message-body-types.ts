/**
 * The shapes message validation works on: the JSON body of a message (create, edit, interaction
 * response, webhook) and the refusal a body check answers with.
 */
import type { APIEmbed, APIMessageTopLevelComponent } from 'discord-api-types/v10';
import type { DiscordFieldErrors } from './discord-errors.ts';

/** The JSON body of create/edit message, interaction responses and webhook messages. */
export interface MessageBody {
  content?: string | null;
  embeds?: APIEmbed[] | null;
  components?: APIMessageTopLevelComponent[] | null;
  flags?: number | null;
  tts?: boolean;
  /** Create message only (see message-nonce.ts): echoed on the message and its MESSAGE_CREATE. */
  nonce?: string | number | null;
  enforce_nonce?: boolean | null;
  allowed_mentions?: unknown;
  message_reference?: unknown;
  attachments?: unknown[];
}

export interface BodyProblem {
  status: number;
  code: number;
  message: string;
  errors?: DiscordFieldErrors;
}
