import { type JobStatus, jobIdFor, MESSAGES, PERSONALITY_QUESTION_TYPES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { findEnabledButton, renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { COUNT_FAILED } from '../shared/ConfirmDialog.tsx';
import {
  jobFailureText,
  type LastRefresh,
  NO_REFRESH_YET,
  PERSONALITY_FAILURES,
  PLEASE_SELECT_CHANNEL,
  relativeTime,
  resetConfirmText,
} from './personality-model.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const QUESTIONS = [
  {
    question_id: 5,
    options: [],
    question_type: 'pronouns',
    role_count: 4,
    is_multi_select: true,
    is_enabled: true,
  },
  {
    question_id: 2,
    options: [],
    question_type: 'zodiac',
    title: 'Star sign',
    role_count: 12,
    is_multi_select: false,
    is_enabled: false,
  },
  {
    question_id: 9,
    options: [],
    question_type: 'favourite_cheese',
    role_count: 3,
    is_multi_select: false,
    is_enabled: true,
  },
];

interface MoreOptions {
  lastRefresh?: LastRefresh | null;
  /** Reset puts the setup away, then cannot queue its job (503). */
  resetQueueDown?: boolean;
  /** The job status answered at the n-th poll (1-based) of whichever job was started. */
  job?: (poll: number, name: string) => Partial<JobStatus>;
}

function personalityApi(
  initiallyConfigured: boolean,
  failGenerate = false,
  botAbsent = false,
  more: MoreOptions = {},
) {
  let configured = initiallyConfigured;
  let stateLoads = 0;
  let polls = 0;
  let started = '';
  const accept = (name: 'generate' | 'post' | 'reset') => {
    started = `personality-roles.${name}`;
    polls = 0;
    return { status: 202, body: { job_id: `${started}.${STATION.id}` } };
  };
  const api = fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: !botAbsent } };
    if (key === `GET ${base}/channels`)
      return { status: 200, body: { channels: [{ id: '300000000000000012', name: 'roles' }] } };
    if (key === `GET ${base}/personality-roles`) {
      stateLoads += 1;
      return {
        status: 200,
        body: configured
          ? {
              configured: true,
              assign_channel_id: '300000000000000012',
              questions: QUESTIONS,
              ...(more.lastRefresh === undefined ? {} : { last_refresh: more.lastRefresh }),
            }
          : { configured: false, assign_channel_id: null, questions: [], last_refresh: null },
      };
    }
    if (key === `POST ${base}/personality-roles/init`) configured = true;
    if (key === `POST ${base}/personality-roles/init`)
      return {
        status: 200,
        body: { configured: true, assign_channel_id: '300000000000000012', questions: QUESTIONS },
      };
    if (key === `POST ${base}/tasks/personality-roles/refresh`) return { status: 204 };
    if (method === 'GET' && path.startsWith(`${base}/personality-roles/insights`))
      return { status: 200, body: { days: 30, questions: [] } };
    if (key === `PUT ${base}/personality-roles/channel`)
      return { status: 200, body: { channel_id: '300000000000000012' } };
    if (method === 'PUT' && path.includes('/questions/'))
      return { status: 200, body: { ...QUESTIONS[0], is_enabled: false } };
    if (key === `POST ${base}/personality-roles/generate-roles`)
      return failGenerate ? { status: 500, body: {} } : accept('generate');
    if (key === `POST ${base}/personality-roles/post-panel`) return accept('post');
    if (key === `POST ${base}/personality-roles/reset`) {
      // The API retires the setup before it answers: the next GET says not configured.
      configured = false;
      if (more.resetQueueDown)
        return {
          status: 503,
          body: { error: 'service_unavailable', message: 'Job queue unavailable. Try again shortly.' },
        };
      return accept('reset');
    }
    if (method === 'GET' && path === `/api/jobs/${started}.${STATION.id}`) {
      polls += 1;
      return {
        status: 200,
        body: {
          id: `${started}.${STATION.id}`,
          name: started,
          guild_id: STATION.id,
          state: 'active',
          progress: 40,
          error: null,
          recovering: false,
          ...more.job?.(polls, started),
        },
      };
    }
    return undefined;
  });
  return { ...api, stateLoads: () => stateLoads };
}

const minutesAgo = (minutes: number) => new Date(Date.now() - minutes * 60_000 - 5_000).toISOString();
/** The paragraph whose whole text is `text` (it spans a <time>). */
const paragraph = (text: string) => (_: string, node: Element | null) =>
  node?.tagName === 'P' && node.textContent === text;

const open = () => renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);

afterEach(() => {
  vi.unstubAllGlobals();
});

/** Reset, then the confirmation dialog's Reset Personality. */
async function confirmReset() {
  fireEvent.click(await screen.findByRole('button', { name: 'Reset' }));
  const dialog = await screen.findByRole('alertdialog', { name: 'Reset personality roles?' });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Personality' }));
}

describe('personality roles', () => {
  it('needs a channel to initialize, then initializes with it and queues a refresh', async () => {
    signInAda();
    const api = personalityApi(false);
    open();
    const initialize = await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    screen.getByText(PLEASE_SELECT_CHANNEL);
    fireEvent.click(initialize);
    expect(screen.getByRole('alert').textContent).toContain(PLEASE_SELECT_CHANNEL);
    expect(api.calls.some((c) => c.path.endsWith('/init'))).toBe(false);

    const select = await screen.findByLabelText('Channel');
    await waitFor(() => expect(select).toHaveProperty('disabled', false));
    fireEvent.change(select, { target: { value: '300000000000000012' } });
    fireEvent.click(initialize);
    await screen.findByText('Question Categories');
    expect(api.calls.find((c) => c.path.endsWith('/init'))?.body).toEqual({
      channel_id: '300000000000000012',
      categories: [...PERSONALITY_QUESTION_TYPES],
    });
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.endsWith('/tasks/personality-roles/refresh'))).toBe(true),
    );
  });

  it('lists known categories with their kind, hides unknown ones, and toggles', async () => {
    signInAda();
    const api = personalityApi(true);
    open();
    await screen.findByText('Question Categories');
    screen.getByText('Star sign');
    screen.getByText('4 roles · Multi-select');
    screen.getByText('12 roles · Single choice');
    expect(screen.queryByText(/favourite_cheese/)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: /: Enabled$/ }));
    await waitFor(() =>
      expect(
        api.calls.find((c) => c.method === 'PUT' && c.path.includes('/questions/pronouns/toggle'))?.body,
      ).toEqual({
        enabled: false,
      }),
    );
    screen.getByText('Roles are auto-created and refreshed every 5 minutes.');
  });

  it('shows the fallback message in a dismissible box and confirms reset', async () => {
    signInAda();
    const api = personalityApi(true, true);
    open();
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await screen.findByText(PERSONALITY_FAILURES.generate);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(PERSONALITY_FAILURES.generate)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset personality roles?' });
    within(dialog).getByText(resetConfirmText(QUESTIONS));
    // This API has no preview: the dialog says so and still works.
    await within(dialog).findByText(COUNT_FAILED);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.path.endsWith('/reset'))).toBe(false);
  });

  it('saves the Assignment Channel before Initialize too', async () => {
    signInAda();
    const api = personalityApi(false);
    open();
    await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    const card = screen.getByRole('region', { name: 'Assignment Channel' });
    const save = within(card).getByRole('button', { name: 'Save' });
    expect(save).toHaveProperty('disabled', true);
    const select = within(card).getByLabelText('Channel');
    await waitFor(() => expect(select).toHaveProperty('disabled', false));
    fireEvent.change(select, { target: { value: '300000000000000012' } });
    fireEvent.click(save);
    await within(card).findByText('Channel saved');
    expect(
      api.calls.find((c) => c.method === 'PUT' && c.path.endsWith('/personality-roles/channel'))?.body,
    ).toEqual({ channel_id: '300000000000000012' });
    expect(api.calls.some((c) => c.path.endsWith('/init'))).toBe(false);
    // Still not initialized: the card stays, no longer asking for a channel.
    screen.getByRole('button', { name: 'Initialize Personality Roles' });
    expect(screen.queryByText(PLEASE_SELECT_CHANNEL)).toBeNull();
  });

  it('drops the Please select a channel first banner once a channel is picked', async () => {
    signInAda();
    personalityApi(false);
    open();
    const initialize = await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    fireEvent.click(initialize);
    expect(screen.getByRole('alert').textContent).toContain(PLEASE_SELECT_CHANNEL);
    const select = screen.getByLabelText('Channel');
    await waitFor(() => expect(select).toHaveProperty('disabled', false));
    fireEvent.change(select, { target: { value: '300000000000000012' } });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByText(PLEASE_SELECT_CHANNEL)).toBeNull();
  });

  it('says Bot not in guild once, with the invite, when the bot is absent', async () => {
    signInAda();
    personalityApi(true, false, true);
    open();
    await screen.findByText('Question Categories');
    const said = screen.getAllByText(MESSAGES.botNotInGuild).filter((node) => !node.closest('select'));
    expect(said).toHaveLength(1);
    expect(screen.getByLabelText('Channel')).toHaveProperty('disabled', true);
    expect(screen.getByRole('link', { name: 'Invite to Server' }).getAttribute('href')).toBe(
      `http://127.0.0.1:4000/install?guildId=${STATION.id}`,
    );
  });

  it('shows when the last refresh ran and what it repaired', async () => {
    signInAda();
    const ranAt = minutesAgo(3);
    personalityApi(true, false, false, {
      lastRefresh: { ran_at: ranAt, summary: '2 roles recreated, 1 message re-posted.', repaired: 3 },
    });
    open();
    const note = await screen.findByText(
      paragraph('Last refresh 3 minutes ago: 2 roles recreated, 1 message re-posted.'),
      {},
    );
    expect(note.querySelector('time')?.getAttribute('datetime')).toBe(ranAt);
    expect(screen.queryByText(NO_REFRESH_YET)).toBeNull();
  });

  it('says no refresh has run yet', async () => {
    signInAda();
    personalityApi(true, false, false, { lastRefresh: null });
    open();
    await screen.findByText(NO_REFRESH_YET);
    screen.getByText('Roles are auto-created and refreshed every 5 minutes.');
  });

  it('shows the Initialize card right after a confirmed reset, with the reset job', async () => {
    signInAda();
    const api = personalityApi(true, false, false, {
      job: (poll) =>
        poll >= 3
          ? {
              state: 'completed',
              progress: 100,
              result: { ok: true, summary: 'Deleted 40 roles and 10 messages' },
            }
          : {},
    });
    open();
    await confirmReset();
    await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    expect(screen.queryByText('Question Categories')).toBeNull();
    expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/personality-roles/reset'))).toBe(
      true,
    );
    const card = screen.getByRole('region', { name: 'Initialize Personality Roles' });
    // Not waiting for the job: it is still running under the Initialize card.
    await within(card).findByText('Resetting personality roles…');
    await within(card).findByText('Deleted 40 roles and 10 messages');
    within(card).getByText('Resetting personality roles: done');
  });

  it('shows the Initialize card and the reason when reset could not queue its job', async () => {
    signInAda();
    personalityApi(true, false, false, { resetQueueDown: true });
    open();
    await confirmReset();
    await screen.findByRole('button', { name: 'Initialize Personality Roles' });
    expect(screen.getByRole('alert').textContent).toContain('Job queue unavailable. Try again shortly.');
  });

  it('shows a finished job summary and warnings, then reloads the state', async () => {
    signInAda();
    const warning =
      'I can\'t give members the role "Gemini": my role must be above it in Server Settings → Roles.';
    const api = personalityApi(true, false, false, {
      job: (poll) =>
        poll >= 2
          ? {
              state: 'completed',
              progress: 100,
              result: { ok: true, summary: 'Created 58 roles', created: 58, warnings: [warning] },
            }
          : {},
    });
    open();
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await screen.findByText('Created 58 roles');
    const banner = screen.getByText('Space Cadet needs your attention').closest('[role="alert"]');
    expect(banner?.textContent).toContain(warning);
    const loadsAtFinish = api.stateLoads();
    await waitFor(() => expect(api.stateLoads()).toBeGreaterThan(loadsAtFinish));
  });

  it("puts a failed job's own message in the dismissible error box", async () => {
    signInAda();
    const reason = 'I need the Manage Roles permission to create roles.';
    personalityApi(true, false, false, {
      job: (poll) => (poll >= 2 ? { state: 'failed', progress: 10, error: reason } : {}),
    });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Post / Update Messages' }));
    const box = await screen.findByRole('alert');
    expect(box.textContent).toContain(reason);
    // Said once: the progress box does not repeat it.
    expect(screen.getAllByText(reason)).toHaveLength(1);
    fireEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(reason)).toBeNull();
    // The buttons work again.
    expect(screen.getByRole('button', { name: 'Generate Roles' })).toHaveProperty('disabled', false);
  });
});

describe('personality roles model', () => {
  it('words a finished job that did not work, with its fallback when it says nothing', () => {
    const job = (over: Partial<JobStatus>): JobStatus => ({
      id: jobIdFor('personality-roles.generate', STATION.id),
      name: 'personality-roles.generate',
      guild_id: STATION.id,
      state: 'active',
      progress: 0,
      error: null,
      recovering: false,
      waiting_for_discord: false,
      ...over,
    });
    expect(jobFailureText(job({}))).toBeNull();
    expect(jobFailureText(job({ state: 'failed', error: 'Missing Access' }))).toBe('Missing Access');
    expect(jobFailureText(job({ state: 'failed', error: null }))).toBe(PERSONALITY_FAILURES.generate);
    expect(jobFailureText(job({ name: 'personality-roles.post', state: 'failed', error: ' ' }))).toBe(
      PERSONALITY_FAILURES.post,
    );
    expect(jobFailureText(job({ name: 'personality-roles.reset', state: 'failed', error: null }))).toBe(
      PERSONALITY_FAILURES.reset,
    );
    expect(
      jobFailureText(
        job({ state: 'completed', result: { ok: false, summary: 'Initialize personality roles first.' } }),
      ),
    ).toBe('Initialize personality roles first.');
    expect(
      jobFailureText(job({ state: 'completed', result: { ok: true, summary: 'Created 3 roles' } })),
    ).toBeNull();
  });

  it('says how long ago, in words', () => {
    const now = Date.parse('2030-01-01T12:00:00Z');
    expect(relativeTime('2030-01-01T11:59:30Z', now)).toBe('just now');
    expect(relativeTime('2030-01-01T12:00:10Z', now)).toBe('just now');
    expect(relativeTime('2030-01-01T11:59:00Z', now)).toBe('1 minute ago');
    expect(relativeTime('2030-01-01T11:55:00Z', now)).toBe('5 minutes ago');
    expect(relativeTime('2030-01-01T09:30:00Z', now)).toBe('2 hours ago');
    expect(relativeTime('2029-12-29T12:00:00Z', now)).toBe('3 days ago');
  });
});
