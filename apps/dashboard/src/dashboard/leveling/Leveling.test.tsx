import { jobIdFor, MESSAGES } from '@spacecadet/contract';
import { clampCooldown, clampXpPerMessage, normalizeMultiplier } from '@spacecadet/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type FakeRoute, fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { boostExpiryLabel, boostTargetLabel } from './LevelingBoosts.tsx';
import { LEVELING_CONFIRM, LEVELING_DONE, roleCapHint } from './leveling-model.ts';

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

function levelingRoutes(
  roles: unknown[] = [],
  boosts: unknown[] = [],
  overrides: Record<string, { status: number; body?: unknown }> = {},
): FakeRoute {
  return ({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (overrides[key]) return overrides[key];
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: [] } };
    if (key === `GET ${base}/leveling`) return { status: 200, body: { leveling: SETTINGS, roles, boosts } };
    if (key === `PUT ${base}/leveling`) return { status: 200, body: storedAsApi(body) };
    if (key === `POST ${base}/leveling/roles`)
      return {
        status: 201,
        body: {
          id: 9,
          role_name: 'Level Reward',
          level_required: 1,
          is_image_role: false,
          role_id: null,
          ...(body as object),
        },
      };
    return undefined;
  };
}

function levelingApi(...args: Parameters<typeof levelingRoutes>) {
  return fakeApi(levelingRoutes(...args));
}

/** What the API stores for a PUT: the body with its numbers clamped as core clamps them. */
function storedAsApi(body: unknown) {
  const sent = (body ?? {}) as Record<string, unknown>;
  return {
    ...SETTINGS,
    ...sent,
    ...('xp_multiplier' in sent ? { xp_multiplier: normalizeMultiplier(sent.xp_multiplier) } : {}),
    ...('xp_per_message' in sent ? { xp_per_message: clampXpPerMessage(sent.xp_per_message) } : {}),
    ...('message_cooldown_sec' in sent
      ? { message_cooldown_sec: clampCooldown(sent.message_cooldown_sec) }
      : {}),
  };
}

const role = (id: number, level: number, name = `Role ${level}`) => ({
  id,
  role_name: name,
  level_required: level,
  is_image_role: false,
  role_id: null,
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
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

  it('sends what was typed with enabled true, then shows what was stored and says it was clamped', async () => {
    signInAda();
    const api = levelingApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('XP per message'), { target: { value: '5000' } });
    fireEvent.change(screen.getByLabelText('Message cooldown (seconds)'), { target: { value: '-5' } });
    fireEvent.change(screen.getByLabelText('XP multiplier'), { target: { value: '-3' } });
    fireEvent.change(screen.getByLabelText('Announcement channel ID'), {
      target: { value: '300000000000000013' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({
        enabled: true,
        xp_multiplier: -3,
        announcement_channel: '300000000000000013',
        daily_overview_channel: null,
        xp_per_message: 5000,
        message_cooldown_sec: -5,
      }),
    );
    await screen.findByText('Stored as 1000 XP, the maximum.');
    screen.getByText('Stored as 0 seconds, the minimum.');
    screen.getByText('Stored as 0: the multiplier cannot be negative — XP is off while it is 0.');
    expect(screen.getByLabelText('XP per message')).toHaveProperty('value', '1000');
    expect(screen.getByLabelText('Message cooldown (seconds)')).toHaveProperty('value', '0');
    expect(screen.getByLabelText('XP multiplier')).toHaveProperty('value', '0');
    // Editing the field again puts its note away; values stored as typed get none.
    fireEvent.change(screen.getByLabelText('XP per message'), { target: { value: '20' } });
    expect(screen.queryByText('Stored as 1000 XP, the maximum.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    await screen.findByText('Saved');
    expect(screen.queryByText(/Stored as/)).toBeNull();
  });

  it('shows Sync Roles running, then done with its summary and warnings', async () => {
    signInAda();
    const jobId = jobIdFor('leveling.sync-roles', STATION.id);
    let polls = 0;
    const warning = 'I can\'t give members the role "Level 5": my role must be above it.';
    const previous = levelingRoutes([], [], {
      [`POST ${base}/leveling/tasks/refresh`]: { status: 202, body: { job_id: jobId } },
    });
    const api = fakeApi(({ method, path, body }) => {
      if (path.startsWith('/api/jobs/')) {
        polls += 1;
        const done = polls >= 2;
        return {
          status: 200,
          body: {
            id: jobId,
            name: 'leveling.sync-roles',
            guild_id: STATION.id,
            state: done ? 'completed' : 'active',
            progress: done ? 100 : 40,
            result: done ? { ok: true, summary: 'Created 2 roles', warnings: [warning] } : undefined,
            error: null,
          },
        };
      }
      return previous({ method, path, body });
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Sync Roles' }));
    await screen.findByText('Syncing roles…');
    expect(screen.getByRole('button', { name: 'Sync Roles' })).toHaveProperty('disabled', true);
    await screen.findByText('Syncing roles: done');
    screen.getByText('Created 2 roles');
    screen.getByText(warning);
    expect(screen.getByRole('button', { name: 'Sync Roles' })).toHaveProperty('disabled', false);
    expect(api.calls.some((c) => c.method === 'POST' && c.path === `${base}/leveling/tasks/refresh`)).toBe(
      true,
    );
  });

  it('shows a failed Resend Overview with its message', async () => {
    signInAda();
    const jobId = jobIdFor('leveling.resend-overview', STATION.id);
    const previous = levelingRoutes([], [], {
      [`POST ${base}/leveling/tasks/resend-overview`]: { status: 202, body: { job_id: jobId } },
    });
    fakeApi(({ method, path, body }) =>
      path.startsWith('/api/jobs/')
        ? {
            status: 200,
            body: {
              id: jobId,
              name: 'leveling.resend-overview',
              guild_id: STATION.id,
              state: 'failed',
              progress: 0,
              error: 'No daily overview channel is set.',
            },
          }
        : previous({ method, path, body }),
    );
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Resend Overview' }));
    await screen.findByText('Resending the overview: failed');
    screen.getByText('No daily overview channel is set.');
  });

  it('resets after the confirm and notes what happened', async () => {
    signInAda();
    const confirm = vi.fn(() => true);
    vi.stubGlobal('confirm', confirm);
    const api = levelingApi([], [], {
      [`POST ${base}/leveling/reset-config`]: { status: 200, body: SETTINGS },
      [`POST ${base}/leveling/reset-all`]: { status: 204 },
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('XP per message'), { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset Config' }));
    expect(confirm).toHaveBeenCalledWith(LEVELING_CONFIRM.resetConfig);
    await screen.findByText(LEVELING_DONE.resetConfig);
    expect(screen.getByLabelText('XP per message')).toHaveProperty('value', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Leveling' }));
    expect(confirm).toHaveBeenCalledWith(LEVELING_CONFIRM.resetAll);
    await screen.findByText(LEVELING_DONE.resetAll);
    expect(api.calls.filter((c) => c.path.includes('/leveling/reset')).map((c) => c.path)).toEqual([
      `${base}/leveling/reset-config`,
      `${base}/leveling/reset-all`,
    ]);
  });

  it('does not reset when the confirm is declined', async () => {
    signInAda();
    vi.stubGlobal(
      'confirm',
      vi.fn(() => false),
    );
    const api = levelingApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset Leveling' }));
    expect(api.calls.some((c) => c.path.includes('/reset'))).toBe(false);
    expect(screen.queryByText(LEVELING_DONE.resetAll)).toBeNull();
  });

  it('links to the leaderboard, keeping the guild', async () => {
    signInAda();
    levelingApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const nav = await screen.findByRole('navigation', { name: 'Leveling' });
    const link = within(nav).getByRole('link', { name: 'Leaderboard' });
    expect(link.getAttribute('href')).toBe(`/dashboard/leveling/leaderboard?guild=${STATION.id}`);
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

  it('clears the add form after Add, offering the next free level', async () => {
    signInAda();
    const api = levelingApi([role(1, 6)]);
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Role name'), { target: { value: 'Veteran' } });
    fireEvent.change(screen.getByLabelText('Level required'), { target: { value: '5' } });
    fireEvent.click(screen.getByLabelText('Image role (attach files and embed links)'));
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    await waitFor(() => expect(screen.getByLabelText('Role name')).toHaveProperty('value', 'Level Reward'));
    expect(api.calls.find((c) => c.path === `${base}/leveling/roles`)?.body).toEqual({
      role_name: 'Veteran',
      level_required: 5,
      is_image_role: true,
    });
    // 6 is taken: 7 is offered.
    expect(screen.getByLabelText('Level required')).toHaveProperty('value', '7');
    expect(screen.getByLabelText('Image role (attach files and embed links)')).toHaveProperty(
      'checked',
      false,
    );
  });

  it("shows the API's 409 in the red banner", async () => {
    signInAda();
    const message = 'Level 3 already has the reward role "Pilot". Edit that role, or choose another level.';
    levelingApi([], [], {
      [`POST ${base}/leveling/roles`]: { status: 409, body: { error: 'conflict', message } },
    });
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Add role' }));
    expect((await screen.findByRole('alert')).textContent).toContain(message);
  });

  it('flags a level that already has a role, and disables Add at 15 with a hint', async () => {
    signInAda();
    levelingApi([role(1, 1, 'Rookie')]);
    const view = renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    await screen.findByText('Level 1 already has the reward role "Rookie". Choose another level.');
    expect(screen.getByRole('button', { name: 'Add role' })).toHaveProperty('disabled', true);
    fireEvent.change(screen.getByLabelText('Level required'), { target: { value: '2' } });
    expect(screen.queryByText(/already has the reward role/)).toBeNull();
    expect(screen.getByRole('button', { name: 'Add role' })).toHaveProperty('disabled', false);
    view.unmount();

    levelingApi(Array.from({ length: 15 }, (_, i) => role(i + 1, i + 1)));
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    await screen.findByText(roleCapHint);
    screen.getByRole('heading', { name: /Roles \(15\/15\)/ });
    expect(screen.getByRole('button', { name: 'Add role' })).toHaveProperty('disabled', true);
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
