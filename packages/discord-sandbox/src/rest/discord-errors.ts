/**
 * Discord's error answers: the JSON error body, the nested 50035 `errors` tree built from field
 * issues, and the plain 401/403/404 every route sends.
 */
import type { FastifyReply } from 'fastify';

export type DiscordFieldErrors = { _errors?: Array<{ code: string; message: string }> } & {
  [key: string]: DiscordFieldErrors | Array<{ code: string; message: string }> | undefined;
};

/** One field problem: where (`['components', 0, 'custom_id']`), Discord's code and message. */
export type Issue = { path: Array<string | number>; code: string; message: string };

/** Folds issues into Discord's nested `errors` tree (`{ a: { 0: { b: { _errors: [...] } } } }`). */
export function toErrors(issues: Issue[]): DiscordFieldErrors {
  const root: DiscordFieldErrors = {};
  for (const issue of issues) {
    let node: DiscordFieldErrors = root;
    for (const key of issue.path) {
      const k = String(key);
      node[k] ??= {};
      node = node[k] as DiscordFieldErrors;
    }
    node._errors ??= [];
    node._errors.push({ code: issue.code, message: issue.message });
  }
  return root;
}

/** 400 `50035 Invalid Form Body` with Discord's nested `errors` tree: every 50035 goes through here. */
export function invalidFormBody(reply: FastifyReply, issues: Issue[]): FastifyReply {
  return discordError(reply, 400, 50035, 'Invalid Form Body', toErrors(issues));
}

export function discordError(
  reply: FastifyReply,
  status: number,
  code: number,
  message: string,
  errors?: DiscordFieldErrors,
): FastifyReply {
  return reply.code(status).send(errors ? { message, code, errors } : { message, code });
}

export const unauthorized = (reply: FastifyReply) => discordError(reply, 401, 0, '401: Unauthorized');
export const notFound = (reply: FastifyReply) => discordError(reply, 404, 0, '404: Not Found');
export const missingPermissions = (reply: FastifyReply) =>
  discordError(reply, 403, 50013, 'Missing Permissions');
