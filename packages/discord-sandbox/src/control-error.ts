/** The answer every `/_sandbox/*` route refuses with: a status and `{ error, message }`. */
import type { FastifyReply } from 'fastify';

export const controlError = (reply: FastifyReply, status: number, error: string, message: string) =>
  reply.code(status).send({ error, message });
