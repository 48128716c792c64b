/** Platform-owner tools (OWNER_USER_ID): the way into the job queue view. */
import { z } from 'zod';
import { ok, route } from '../route-definition.ts';

export const adminRoutes = {
  openQueueView: route({
    method: 'POST',
    path: '/api/admin/queue-view',
    auth: 'session',
    tag: 'admin',
    summary: 'Platform owner only: a one-time link (valid 60 s) that opens the job queue view in the browser',
    errors: [400, 401, 403, 413, 415, 429, 503],
    responses: ok(z.object({ url: z.url() })),
  }),
} as const;
