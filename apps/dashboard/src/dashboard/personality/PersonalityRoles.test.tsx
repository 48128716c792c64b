import { MESSAGES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import {
  PERSONALITY_FAILURES,
  PERSONALITY_RESET_CONFIRM,
  PLEASE_SELECT_CHANNEL,
} from './personality-model.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const QUESTIONS = [
  { question_type: 'pronouns', role_count: 4, is_multi_select: true, is_enabled: true },
  { question_type: 'zodiac', title: 'Star sign', role_count: 12, is_multi_select: false, is_enabled: false },
  { question_type: 'favourite_cheese', role_count: 3, is_multi_select: false, is_enabled: true },
];

function personalityApi(initiallyConfigured: boolean, failGenerate = false, botAbsent = false) {
  let configured = initiallyConfigured;
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (key === 'GET /api/auth/session') return { status: 401, body: { error: 'not_authenticated' } };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: !botAbsent } };
    if (key === `GET ${base}/channels`)
      return { status: 200, body: { channels: [{ id: '300000000000000012', name: 'roles' }] } };
    if (key === `GET ${base}/personality-roles`)
      return {
        status: 200,
        body: configured
          ? { configured: true, assign_channel_id: '300000000000000012', questions: QUESTIONS }
          : { configured: false, assign_channel_id: null, questions: [] },
      };
    if (key === `POST ${base}/personality-roles/init`) configured = true;
    if (key === `POST ${base}/personality-roles/init`)
      return {
        status: 200,
        body: { configured: true, assign_channel_id: '300000000000000012', questions: QUESTIONS },
      };
    if (key === `POST ${base}/tasks/personality-roles/refresh`) return { status: 204 };
    if (key === `PUT ${base}/personality-roles/channel`)
      return { status: 200, body: { channel_id: '300000000000000012' } };
    if (method === 'PUT' && path.includes('/questions/'))
      return { status: 200, body: { ...QUESTIONS[0], is_enabled: false } };
    if (key === `POST ${base}/personality-roles/generate-roles`)
      return failGenerate ? { status: 500, body: {} } : { status: 202, body: { job_id: 'j' } };
    if (key === `POST ${base}/personality-roles/reset`) return { status: 202, body: { job_id: 'j' } };
    return undefined;
  });
}

const open = () => renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('personality roles', () => {
  it('needs a channel to initialize, then initializes with it and queues a refresh', async () => {
    signInAda();
    const api = personalityApi(false);
    open();
    const initialize = await screen.findByRole(
      'button',
      { name: 'Initialize Personality Roles' },
      { timeout: 5000 },
    );
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
    });
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.endsWith('/tasks/personality-roles/refresh'))).toBe(true),
    );
  });

  it('lists known categories with their kind, hides unknown ones, and toggles', async () => {
    signInAda();
    const api = personalityApi(true);
    open();
    await screen.findByText('Question Categories', {}, { timeout: 5000 });
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
    const confirm = vi.fn(() => false);
    vi.stubGlobal('confirm', confirm);
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Generate Roles' }, { timeout: 5000 }));
    await screen.findByText(PERSONALITY_FAILURES.generate);
    fireEvent.click(screen.getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByText(PERSONALITY_FAILURES.generate)).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    expect(confirm).toHaveBeenCalledWith(PERSONALITY_RESET_CONFIRM);
    expect(api.calls.some((c) => c.path.endsWith('/reset'))).toBe(false);
  });

  it('saves the Assignment Channel before Initialize too', async () => {
    signInAda();
    const api = personalityApi(false);
    open();
    await screen.findByRole('button', { name: 'Initialize Personality Roles' }, { timeout: 5000 });
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
    const initialize = await screen.findByRole(
      'button',
      { name: 'Initialize Personality Roles' },
      { timeout: 5000 },
    );
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
    await screen.findByText('Question Categories', {}, { timeout: 5000 });
    const said = screen.getAllByText(MESSAGES.botNotInGuild).filter((node) => !node.closest('select'));
    expect(said).toHaveLength(1);
    expect(screen.getByLabelText('Channel')).toHaveProperty('disabled', true);
    expect(screen.getByRole('link', { name: 'Invite to Server' }).getAttribute('href')).toBe(
      `http://127.0.0.1:4000/install?guildId=${STATION.id}`,
    );
  });
});
