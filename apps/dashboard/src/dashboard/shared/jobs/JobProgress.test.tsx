import { routes as contractRoutes, JOB_NAMES, type JobStatus, jobIdFor } from '@spacecadet/contract';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../../test/fake-api.ts';
import { findEnabledButton, renderAt } from '../../../../test/render.tsx';
import DashboardApp from '../../DashboardApp.tsx';
import {
  JOB_ACTION_ROUTES,
  JOB_LOST_MESSAGE,
  JOB_RECOVERING_MESSAGE,
  JOB_WAITING_FOR_DISCORD_MESSAGE,
  RUN_AGAIN_LABEL,
  rerunOf,
} from './job-model.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;

type JobAnswer = { status: 404 } | { status: 200; body: Partial<JobStatus> };
const notFound: JobAnswer = { status: 404 };
const status = (name: string, fields: Partial<JobStatus>): JobAnswer => ({
  status: 200,
  body: {
    id: `${name}.${STATION.id}`,
    name,
    guild_id: STATION.id,
    state: 'active',
    progress: 0,
    error: null,
    ...fields,
  },
});

/**
 * The API as a page with job buttons sees it. `runs[n]` answers GET /api/jobs/:id in turn after
 * the (n+1)th POST of a job action (the last answer repeats).
 */
function jobsApi(runs: JobAnswer[][]) {
  const posts: string[] = [];
  let polls = 0;
  const api = fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`)
      return { status: 200, body: { channels: [{ id: '300000000000000012', name: 'roles' }] } };
    if (key === `GET ${base}/color-roles`)
      return { status: 200, body: { groups: [], channel_id: '300000000000000012', mode: 'basic' } };
    if (key === `GET ${base}/personality-roles`)
      return {
        status: 200,
        body: {
          configured: true,
          assign_channel_id: '300000000000000012',
          questions: [
            {
              question_id: 5,
              question_type: 'pronouns',
              role_count: 4,
              is_multi_select: true,
              is_enabled: true,
              options: [],
            },
          ],
        },
      };
    if (key.startsWith(`GET ${base}/personality-roles/insights`))
      return { status: 200, body: { days: 30, questions: [] } };
    if (key === `POST ${base}/tasks/personality-roles/refresh`) return { status: 204 };
    const generate: Record<string, string> = {
      [`${base}/color-roles/generate-roles`]: 'color-roles.generate',
      [`${base}/personality-roles/generate-roles`]: 'personality-roles.generate',
    };
    const started = method === 'POST' ? generate[path] : undefined;
    if (started) {
      posts.push(path);
      polls = 0;
      return { status: 202, body: { job_id: jobIdFor(started as 'color-roles.generate', STATION.id) } };
    }
    if (path.startsWith('/api/jobs/')) {
      const run = runs[Math.max(0, posts.length - 1)] ?? [notFound];
      const answer = run[Math.min(polls, run.length - 1)] ?? notFound;
      polls += 1;
      if (answer.status === 404) return { status: 404, body: { error: 'not_found', message: 'No such job' } };
      return answer;
    }
    return undefined;
  });
  return { ...api, posts };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('the shared job tracker', () => {
  it('says a job the queue lost can be run again, and runs the same action again', async () => {
    signInAda();
    const api = jobsApi([
      [status('color-roles.generate', { progress: 20 }), notFound],
      [
        status('color-roles.generate', { state: 'waiting' }),
        status('color-roles.generate', {
          state: 'completed',
          progress: 100,
          result: { ok: true, summary: 'Created 12 roles' },
        }),
      ],
    ]);
    renderAt(`/dashboard/color-roles?guild=${STATION.id}`, routes);
    fireEvent.click(await findEnabledButton('Generate Roles'));

    await screen.findByText(JOB_LOST_MESSAGE);
    // The lost job no longer holds the buttons.
    expect(screen.getByRole('button', { name: 'Generate Roles' })).toHaveProperty('disabled', false);

    fireEvent.click(screen.getByRole('button', { name: RUN_AGAIN_LABEL }));
    await screen.findByText('Created 12 roles');
    expect(api.posts).toEqual([`${base}/color-roles/generate-roles`, `${base}/color-roles/generate-roles`]);
    expect(screen.queryByText(JOB_LOST_MESSAGE)).toBeNull();
  });

  it('tells the admin while a job is being recovered after its worker stopped', async () => {
    signInAda();
    jobsApi([
      [
        status('color-roles.generate', { progress: 30 }),
        status('color-roles.generate', { progress: 30, recovering: true }),
        status('color-roles.generate', { progress: 30, recovering: true, state: 'waiting' }),
        status('color-roles.generate', { progress: 60, recovering: true }),
        status('color-roles.generate', {
          state: 'completed',
          progress: 100,
          result: { ok: true, summary: 'Created 12 roles' },
        }),
      ],
    ]);
    renderAt(`/dashboard/color-roles?guild=${STATION.id}`, routes);
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await screen.findByText(JOB_RECOVERING_MESSAGE);
    await screen.findByText('Created 12 roles');
    expect(screen.queryByText(JOB_RECOVERING_MESSAGE)).toBeNull();
  });

  it('says "Waiting for Discord…" while a job waits for Discord, and the outcome once it is back', async () => {
    signInAda();
    jobsApi([
      [
        status('color-roles.generate', { progress: 40 }),
        status('color-roles.generate', { progress: 40, waiting_for_discord: true, state: 'delayed' }),
        status('color-roles.generate', { progress: 40, waiting_for_discord: true, state: 'active' }),
        status('color-roles.generate', {
          state: 'completed',
          progress: 100,
          result: { ok: true, summary: 'Created 24 roles' },
        }),
      ],
    ]);
    renderAt(`/dashboard/color-roles?guild=${STATION.id}`, routes);
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await screen.findByText(JOB_WAITING_FOR_DISCORD_MESSAGE);
    // Still running, not failed: the button stays busy and no error shows.
    expect(screen.queryByRole('alert')).toBeNull();
    await screen.findByText('Created 24 roles');
    expect(screen.queryByText(JOB_WAITING_FOR_DISCORD_MESSAGE)).toBeNull();
  });

  it('offers the re-run on the personality page too', async () => {
    signInAda();
    const api = jobsApi([
      [notFound],
      [status('personality-roles.generate', { state: 'completed', progress: 100 })],
    ]);
    const get = (prefix: string) =>
      api.nextRequest(({ method, path }) => method === 'GET' && path.startsWith(prefix));
    // The page is a lazy chunk that loads its data, and the job is polled: each is waited for as
    // the event it is (the module loaded, the request answered), so a busy machine only slows it.
    const pageData = get(`${base}/personality-roles`);
    renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);
    await import('../../personality-roles/PersonalityRoles.tsx');
    await pageData;
    const firstPoll = get('/api/jobs/');
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await firstPoll;
    await screen.findByText(JOB_LOST_MESSAGE);
    const rerunPoll = get('/api/jobs/');
    fireEvent.click(screen.getByRole('button', { name: RUN_AGAIN_LABEL }));
    await rerunPoll;
    expect(api.posts).toEqual([
      `${base}/personality-roles/generate-roles`,
      `${base}/personality-roles/generate-roles`,
    ]);
    await waitFor(() => expect(screen.queryByText(JOB_LOST_MESSAGE)).toBeNull());
  });
});

describe('rerunOf', () => {
  it('maps every job a button starts to a route that starts it, in the same guild', () => {
    for (const name of JOB_NAMES) {
      const route = JOB_ACTION_ROUTES[name];
      const rerun = rerunOf(jobIdFor(name, STATION.id));
      if (route === null) {
        expect(rerun, name).toBeNull();
        continue;
      }
      expect(rerun, name).toEqual({ route, guildId: STATION.id });
      const def = contractRoutes[route];
      expect(def.method, name).toBe('POST');
      expect(Object.keys(def.responses), name).toEqual(['202']);
    }
    expect(rerunOf('not-a-job')).toBeNull();
  });
});
