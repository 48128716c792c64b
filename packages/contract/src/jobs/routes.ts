/** Progress of the jobs the action routes queue. */
import { ok, route } from '../route-definition.ts';
import { JobParams, JobStatus } from './schemas.ts';

export const jobRoutes = {
  getJob: route({
    method: 'GET',
    path: '/api/jobs/:jobId',
    auth: 'session',
    tag: 'jobs',
    summary: "State and progress of a job (only for users who manage the job's guild)",
    params: JobParams,
    errors: [400, 401, 403, 404, 429, 502, 503],
    responses: ok(JobStatus),
  }),
} as const;
