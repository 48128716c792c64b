import { MESSAGES } from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { boostExpiryLabel, boostTargetLabel } from './LevelingBoosts.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const SETTINGS = {
  enabled: false,
  xp_multiplier: 1,
  announcement_channel: null,
  daily_overview_channel: null,
  xp_per_message: 10,
  message_cooldown_sec: 30,
};

function levelingApi(
  roles: unknown[] = [],
  boosts: unknown[] = [],
  overrides: Record<string, { status: number; body?: unknown }> = {},
) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (overrides[key]) return overrides[key];
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (key === 'GET /api/auth/session') return { status: 401, body: { error: 'not_authenticated' } };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: [] } };
    if (key === `GET ${base}/leveling`) return { status: 200, body: { leveling: SETTINGS, roles, boosts } };
    if (key === `PUT ${base}/leveling`) return { status: 200, body: { ...SETTINGS, enabled: true } };
    if (key === `POST ${base}/leveling/roles`)
      return {
        status: 201,
        body: { id: 9, role_name: 'Level Reward', level_required: 1, is_image_role: false, role_id: null },
      };
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('leveling', () => {
  it('redirects /dashboard/leveling to the settings, keeping guild', async () => {
    signInAda();
    levelingApi();
    renderAt(`/dashboard/leveling?guild=${STATION.id}`, routes);
    await screen.findByRole('heading', { name: 'Leveling settings' });
    expect(screen.getByTestId('location').textContent).toBe(
      `/dashboard/leveling/settings?guild=${STATION.id}`,
    );
  });

  it('saves clamped settings with enabled true', async () => {
    signInAda();
    const api = levelingApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('XP per message'), { target: { value: '5000' } });
    fireEvent.change(screen.getByLabelText('Message cooldown (seconds)'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText('Announcement channel ID'), {
      target: { value: '300000000000000013' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
        enabled: true,
        xp_multiplier: 1,
        announcement_channel: '300000000000000013',
        daily_overview_channel: null,
        xp_per_message: 1000,
        message_cooldown_sec: 0,
      }),
    );
  });

  it('lists reward roles by level with created or pending, and adding one turns leveling on', async () => {
    signInAda();
    const api = levelingApi([
      { id: 2, role_name: 'Veteran', level_required: 20, is_image_role: true, role_id: '555555' },
      { id: 1, role_name: 'Rookie', level_required: 5, is_image_role: false, role_id: null },
    ]);
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    const list = await screen.findByRole('heading', { name: /Roles \(2\/15\)/ });
    const items = within(list.parentElement as HTMLElement).getAllByRole('listitem');
    expect(items.map((item) => item.querySelector('.level-badge')?.textContent)).toEqual(['Lv 5', 'Lv 20']);
    within(items[0] as HTMLElement).getByText('pending');
    within(items[1] as HTMLElement).getByText('created');
    screen.getByText('Max 15');
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'PUT' && c.path === `${base}/leveling`)).toBe(true),
    );
    expect(api.calls.find((c) => c.path === `${base}/leveling/roles`)?.body).toEqual({
      role_name: 'Level Reward',
      level_required: 1,
      is_image_role: false,
    });
  });

  it('shows the empty states', async () => {
    signInAda();
    levelingApi();
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    await screen.findByText('No roles yet');
  });

  it('describes boost targets and expiry', () => {
    expect(boostTargetLabel({ user_id: null })).toBe('Server-wide');
    expect(boostTargetLabel({ user_id: '200000000000000003' })).toBe('User 200000000000000003');
    expect(boostTargetLabel({ user_id: '-role:300000000000000021' })).toBe('Role 300000000000000021');
    expect(boostExpiryLabel({ expires_at: null })).toBe('Permanent');
  });

  it("shows a failed action in a dismissible box and the page's fallback for a failed load", async () => {
    signInAda();
    levelingApi([], [], { [`POST ${base}/leveling/roles`]: { status: 500, body: {} } });
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Add role' }));
    const box = await screen.findByRole('alert');
    expect(box.textContent).toContain('Failed to add role');
    fireEvent.click(within(box).getByRole('button', { name: 'Dismiss' }));
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says why the boosts did not load', async () => {
    signInAda();
    levelingApi([], [], { [`GET ${base}/leveling`]: { status: 400, body: {} } });
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    await screen.findByText('Failed to load boosts');
    expect(screen.queryByRole('button', { name: 'Dismiss' })).toBeNull();
  });

  it('says Bot not in guild once, with the invite, above both disabled channel selects', async () => {
    signInAda();
    levelingApi([], [], {
      [`GET /api/bot/in-guild/${STATION.id}`]: { status: 200, body: { inGuild: false } },
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const select = await screen.findByLabelText('Announcement channel');
    expect(select).toHaveProperty('disabled', true);
    expect(screen.getByLabelText('Daily overview channel')).toHaveProperty('disabled', true);
    const said = screen.getAllByText(MESSAGES.botNotInGuild).filter((node) => !node.closest('select'));
    expect(said).toHaveLength(1);
    expect(screen.getByRole('link', { name: 'Invite to Server' }).getAttribute('href')).toBe(
      `http://127.0.0.1:4000/install?guildId=${STATION.id}`,
    );
  });
});
