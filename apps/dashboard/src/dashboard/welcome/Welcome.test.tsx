import { DEFAULT_WELCOME_SETTINGS, WELCOME_MESSAGES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeApi, QUIET, STATION, signInAda, welcomeRoutes } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const CHANNELS = [
  { id: '300000000000000011', name: 'general', type: 0 },
  { id: '300000000000000012', name: 'welcome', type: 0 },
];
const ROLES = [
  { id: '300000000000000021', name: 'Crew', color: 0x3ddc97, position: 3, managed: false },
  { id: '300000000000000022', name: 'Space Cadet', color: 0, position: 2, managed: true },
  { id: '300000000000000023', name: 'Admin', color: 0, position: 5, managed: false },
];
const url = `/dashboard/welcome?guild=${STATION.id}`;

function welcomeApi(start = {}) {
  const welcome = welcomeRoutes(STATION.id, start);
  const route: FakeRoute = (request) => {
    const key = `${request.method} ${request.path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (request.path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: CHANNELS } };
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: ROLES } };
    return welcome.route(request);
  };
  return { api: fakeApi(route), welcome };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('welcome page', () => {
  it('shows the stored settings with a preview of the default message for the signed-in user', async () => {
    signInAda();
    welcomeApi();
    renderAt(url, routes);
    await screen.findByRole('heading', { name: 'Welcome', level: 1 });
    const box = await screen.findByLabelText<HTMLTextAreaElement>('Welcome message');
    expect(box.value).toBe(DEFAULT_WELCOME_SETTINGS.message);
    expect(screen.getByTestId('wl-message-preview').textContent).toBe(
      'Welcome to Sandbox Station, @ada! You are member #128.',
    );
    expect(screen.getByText('Sandbox Station', { selector: 'strong' })).toBeTruthy();
    expect(screen.getByRole('radio', { name: /As soon as they join/ })).toHaveProperty('checked', true);
    expect(screen.getByText(`${DEFAULT_WELCOME_SETTINGS.message.length} / 2,000`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('updates the preview as the admin types, and offers {answers} only after Onboarding', async () => {
    signInAda();
    welcomeApi();
    renderAt(url, routes);
    const box = await screen.findByLabelText('Welcome message');
    expect(screen.queryByRole('button', { name: /^Insert \{answers\}/ })).toBeNull();
    fireEvent.click(screen.getByRole('radio', { name: /After they finish Onboarding/ }));
    fireEvent.change(box, { target: { value: 'Hi {user} ({username}) of {server}, you picked {answers}' } });
    expect(screen.getByTestId('wl-message-preview').textContent).toBe(
      'Hi @ada (ada) of Sandbox Station, you picked he/him and Gaming',
    );
    expect(screen.getByRole('button', { name: /^Insert \{answers\}/ })).toBeTruthy();
    expect(screen.getByText('56 / 2,000')).toBeTruthy();
  });

  it('saves only what changed and shows what was stored', async () => {
    signInAda();
    const { api, welcome } = welcomeApi();
    renderAt(url, routes);
    await screen.findByLabelText('Welcome message');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Send a welcome message' }));
    fireEvent.change(screen.getByLabelText('Welcome channel'), { target: { value: CHANNELS[1]?.id } });
    fireEvent.click(screen.getByRole('radio', { name: /After they finish Onboarding/ }));
    fireEvent.click(screen.getByRole('checkbox', { name: 'Also send a direct message' }));
    fireEvent.change(await screen.findByLabelText('Direct message'), {
      target: { value: 'Hello {username}' },
    });
    expect(screen.getByTestId('wl-dm-message-preview').textContent).toBe('Hello ada');
    fireEvent.click(screen.getByRole('checkbox', { name: /Give members back the roles/ }));
    fireEvent.change(screen.getByLabelText('Wait before giving them'), { target: { value: '90' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({
      enabled: true,
      channel_id: CHANNELS[1]?.id,
      send_when: 'onboarding_complete',
      dm_enabled: true,
      dm_message: 'Hello {username}',
      sticky_roles: true,
      auto_role_delay_s: 90,
    });
    expect(welcome.stored().enabled).toBe(true);
    expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', true);
  });

  it('does not offer managed roles, and shows the API refusal of a role in the red box', async () => {
    signInAda();
    const { welcome } = welcomeApi();
    renderAt(url, routes);
    const picker = await screen.findByRole('combobox', { name: 'Roles for people who join' });
    await waitFor(() => expect(picker).toHaveProperty('disabled', false));
    fireEvent.focus(picker);
    const list = await screen.findByRole('listbox', { name: 'Roles for people who join' });
    within(list).getByRole('option', { name: 'Crew' });
    expect(within(list).queryByRole('option', { name: 'Space Cadet' })).toBeNull();
    fireEvent.click(within(list).getByRole('option', { name: 'Admin' }));
    const chips = await screen.findByRole('list', { name: 'Roles for people who join' });
    expect(within(chips).getByText('Admin')).toBeTruthy();
    welcome.state.refuse = WELCOME_MESSAGES.roleNotGivable('Admin');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect((await screen.findByRole('alert')).textContent).toContain(
      WELCOME_MESSAGES.roleNotGivable('Admin'),
    );
    await waitFor(() =>
      expect(screen.getByRole('button', { name: 'Save' })).toHaveProperty('disabled', false),
    );
  });

  it('takes the auto-role delay in minutes and sends seconds; shows a stored whole-minute delay in minutes', async () => {
    signInAda();
    const { api } = welcomeApi({ auto_role_delay_s: 300 });
    renderAt(url, routes);
    const delay = await screen.findByLabelText<HTMLInputElement>('Wait before giving them');
    expect(delay.value).toBe('5');
    expect(screen.getByLabelText<HTMLSelectElement>('Delay unit').value).toBe('minutes');
    fireEvent.change(delay, { target: { value: '2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(api.calls.find((call) => call.method === 'PUT')?.body).toEqual({ auto_role_delay_s: 120 });
  });

  it('says when the settings could not be loaded', async () => {
    signInAda();
    fakeApi((request) =>
      request.path === `${base}/welcome`
        ? { status: 403, body: { error: 'forbidden', message: 'You cannot manage this server' } }
        : request.path.startsWith('/api/bot/in-guild/')
          ? { status: 200, body: { inGuild: true } }
          : request.path === '/api/discord/me/guilds'
            ? { status: 200, body: [STATION] }
            : undefined,
    );
    renderAt(url, routes);
    expect((await screen.findByRole('alert')).textContent).toContain('You cannot manage this server');
  });
});
