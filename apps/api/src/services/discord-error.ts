import { z } from 'zod';

/** An error answer of Discord's: OAuth's `error`/`error_description`, or the API's `message`/`code`. */
const DiscordErrorBody = z.object({
  error: z.string().optional(),
  error_description: z.string().optional(),
  message: z.string().optional(),
  code: z.number().optional(),
});

/** The `discordCode` of a bot request the Discord proxy (DISCORD_PROXY_URL) did not answer. */
export const DISCORD_PROXY_UNREACHABLE = 'discord_proxy_unreachable';

/** Discord answered with a non-2xx status, or not at all. */
export class DiscordError extends Error {
  constructor(
    /** HTTP status, or 0 when there was no answer (timeout, refused connection). */
    readonly status: number,
    /** Discord's own wording (`error_description` or `message`) when it gave one. */
    readonly description: string,
    readonly discordCode: string | number | null = null,
    options?: ErrorOptions,
  ) {
    super(`Discord request failed (${status || 'no answer'}): ${description}`, options);
    this.name = 'DiscordError';
  }
}

/** The DiscordError of a non-2xx answer, in Discord's own words when its body has them. */
export function errorAnswer(response: Response, json: unknown): DiscordError {
  const body = DiscordErrorBody.safeParse(json);
  const description =
    (body.success && (body.data.error_description ?? body.data.message ?? body.data.error)) ||
    response.statusText ||
    'Discord request failed';
  const code = body.success ? (body.data.error ?? body.data.code ?? null) : null;
  return new DiscordError(response.status, description, code);
}
