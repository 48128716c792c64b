import type { JobStatus } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { ONBOARDING_NOTE, ONBOARDING_SWITCH_LABEL } from './personality-model.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const JOB_ID = `personality-roles.onboarding.${STATION.id}`;
const FORBIDDEN = 'I need the Manage Server and Manage Roles permissions to edit Onboarding.';

interface Options {
  configured?: boolean;
  /** What PUT onboarding answers instead of 202. */
  refuse?: { status: number; body: unknown };
  /** The job status answered at the n-th poll (1-based). */
  job?: (poll: number) => Partial<JobStatus>;
}

function onboardingApi({ configured = true, refuse, job }: Options = {}) {
  let onboarding = false;
  let polls = 0;
  return fakeApi(({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`)
      return { status: 200, body: { channels: [{ id: '300000000000000012', name: 'roles' }] } };
    if (key === `GET ${base}/personality-roles`) {
      return {
        status: 200,
        body: configured
          ? {
              configured: true,
              assign_channel_id: '300000000000000012',
              questions: [
                {
                  question_id: 2,
                  options: [],
                  question_type: 'zodiac',
                  role_count: 12,
                  is_multi_select: false,
                  is_enabled: true,
                },
              ],
              last_refresh: null,
              onboarding,
            }
          : { configured: false, assign_channel_id: null, questions: [], last_refresh: null, onboarding },
      };
    }
    if (method === 'GET' && path.startsWith(`${base}/personality-roles/insights`))
      return { status: 200, body: { days: 30, questions: [] } };
    if (key === `PUT ${base}/personality-roles/onboarding`) {
      if (refuse) return refuse;
      onboarding = (body as { enabled: boolean }).enabled;
      polls = 0;
      return { status: 202, body: { job_id: JOB_ID } };
    }
    if (key === `GET /api/jobs/${JOB_ID}`) {
      polls += 1;
      const status: JobStatus = {
        id: JOB_ID,
        name: 'personality-roles.onboarding',
        guild_id: STATION.id,
        state: 'active',
        progress: 20,
        error: null,
        recovering: false,
        waiting_for_discord: false,
        ...job?.(polls),
      };
      return { status: 200, body: status };
    }
    return undefined;
  });
}

const open = () => renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);
const card = async () => screen.findByRole('region', { name: 'Discord Onboarding' });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Discord Onboarding card', () => {
  it('is not there before Initialize', async () => {
    signInAda();
    onboardingApi({ configured: false });
    open();
    await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    expect(screen.queryByRole('region', { name: 'Discord Onboarding' })).toBeNull();
  });

  it('turns the switch on, follows the job to its summary and warnings, and shows it stored', async () => {
    signInAda();
    const warning =
      '3 options have no role yet and are left out of Discord Onboarding: run Generate Roles first.';
    const api = onboardingApi({
      job: (poll) =>
        poll >= 2
          ? {
              state: 'completed',
              progress: 100,
              result: { ok: true, summary: 'Discord Onboarding: 9 questions added.', warnings: [warning] },
            }
          : {},
    });
    open();
    const region = await card();
    within(region).getByText(ONBOARDING_NOTE);
    const toggle = within(region).getByRole('switch', { name: ONBOARDING_SWITCH_LABEL });
    expect(toggle).toHaveProperty('checked', false);
    fireEvent.click(toggle);
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/onboarding'))?.body).toEqual({
        enabled: true,
      }),
    );
    await within(region).findByText('Discord Onboarding: 9 questions added.');
    within(region).getByText('Updating Discord Onboarding: done');
    expect(within(region).getByRole('alert').textContent).toContain(warning);
    await waitFor(() => expect(within(region).getByRole('switch')).toHaveProperty('checked', true));
    expect(within(region).getByRole('switch')).toHaveProperty('disabled', false);
  });

  it("puts the job's failure in the page's error box, said once", async () => {
    signInAda();
    onboardingApi({ job: (poll) => (poll >= 2 ? { state: 'failed', progress: 20, error: FORBIDDEN } : {}) });
    open();
    fireEvent.click(within(await card()).getByRole('switch'));
    const box = await screen.findByRole('alert');
    expect(box.textContent).toContain(FORBIDDEN);
    expect(screen.getAllByText(FORBIDDEN)).toHaveLength(1);
    fireEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(FORBIDDEN)).toBeNull();
  });

  it('shows why the request was refused, and the switch as stored', async () => {
    signInAda();
    onboardingApi({
      refuse: {
        status: 400,
        body: { error: 'invalid_input', message: 'Initialize personality roles first.' },
      },
    });
    open();
    const region = await card();
    fireEvent.click(within(region).getByRole('switch'));
    const box = await screen.findByRole('alert');
    expect(box.textContent).toContain('Initialize personality roles first.');
    expect(within(region).getByRole('switch')).toHaveProperty('checked', false);
  });
});
