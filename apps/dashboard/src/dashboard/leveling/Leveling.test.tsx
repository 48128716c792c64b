import { jobIdFor, MESSAGES } from '@spacecadet/contract';
import { clampCooldown, clampXpPerMessage, normalizeMultiplier } from '@spacecadet/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  type FakeRoute,
  fakeApi,
  QUIET,
  LEVELING_SETTINGS as SETTINGS,
  STATION,
  signInAda,
} from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { COUNT_FAILED, COUNTING, UNDO_FROM_HISTORY, UNDO_NOTE } from '../shared/ConfirmDialog.tsx';
import { BOOST_RULE, boostExpiryLabel, boostTargetLabel } from './LevelingBoosts.tsx';
import { deleteRoleConfirm, LEVELING_CONFIRM, LEVELING_DONE, roleCapHint } from './leveling-model.ts';
import { VOICE_XP_RULE } from './SettingsVoiceFields.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const CHANNELS = [
  { id: '300000000000000011', name: 'general', type: 0 },
  { id: '300000000000000013', name: 'level-ups', type: 0 },
];
const GUILD_ROLES = [
  { id: '300000000000000021', name: 'Crew', color: 0x3ddc97, position: 2, managed: false },
  { id: '300000000000000022', name: 'Muted', color: 0, position: 1, managed: false },
];

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
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: GUILD_ROLES } };
    if (key === `GET ${base}/leveling`)
      return { status: 200, body: { leveling: SETTINGS, roles, boosts, rank_card_background: false } };
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
          holders: 0,
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
    ...('xp_min' in sent ? { xp_min: clampXpPerMessage(sent.xp_min) } : {}),
    ...('xp_max' in sent ? { xp_max: clampXpPerMessage(sent.xp_max) } : {}),
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
  holders: 0,
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
    fireEvent.change(await screen.findByLabelText('Most XP per message'), { target: { value: '5000' } });
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
        xp_min: SETTINGS.xp_min,
        xp_max: 5000,
        message_cooldown_sec: -5,
        no_xp_channels: [],
        no_xp_roles: [],
        level_up_message: SETTINGS.level_up_message,
        reward_mode: 'stack',
        leaderboard_visibility: 'off',
        voice_xp_per_minute: SETTINGS.voice_xp_per_minute,
        voice_min_members: SETTINGS.voice_min_members,
        xp_decay: null,
        season_months: null,
        season_keep_rewards: true,
      }),
    );
    await screen.findByText('Stored as 1000 XP, the maximum.');
    screen.getByText('Stored as 0 seconds, the minimum.');
    screen.getByText('Stored as 0: the multiplier cannot be negative — XP is off while it is 0.');
    expect(screen.getByLabelText('Most XP per message')).toHaveProperty('value', '1000');
    expect(screen.getByLabelText('Message cooldown (seconds)')).toHaveProperty('value', '0');
    expect(screen.getByLabelText('XP multiplier')).toHaveProperty('value', '0');
    // Editing the field again puts its note away; values stored as typed get none.
    fireEvent.change(screen.getByLabelText('Most XP per message'), { target: { value: '20' } });
    expect(screen.queryByText('Stored as 1000 XP, the maximum.')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.filter((c) => c.method === 'PUT')).toHaveLength(2));
    await screen.findByText('Saved');
    expect(screen.queryByText(/Stored as/)).toBeNull();
  });

  it('sends voice XP per minute and the people it needs, and states the rule', async () => {
    signInAda();
    const api = levelingApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Voice XP per minute'), { target: { value: '15' } });
    fireEvent.change(screen.getByLabelText('People needed in the channel'), { target: { value: '3' } });
    screen.getByText(VOICE_XP_RULE);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
        voice_xp_per_minute: 15,
        voice_min_members: 3,
      }),
    );
    await screen.findByText('Saved');
    expect(screen.getByLabelText('Voice XP per minute')).toHaveProperty('value', '15');
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
    const api = levelingApi([], [], {
      [`POST ${base}/leveling/reset-config`]: { status: 200, body: SETTINGS },
      [`POST ${base}/leveling/reset-all`]: { status: 204 },
      [`GET ${base}/leveling/reset-all/preview`]: {
        status: 200,
        body: {
          summary: 'Remove the XP of 1,204 members and delete 5 reward roles.',
          roles: 5,
          members: 1204,
        },
      },
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Most XP per message'), { target: { value: '99' } });
    fireEvent.click(screen.getByRole('button', { name: 'Reset Config' }));
    const configDialog = await screen.findByRole('alertdialog', { name: 'Reset the leveling settings?' });
    within(configDialog).getByText(LEVELING_CONFIRM.resetConfig);
    within(configDialog).getByText(UNDO_FROM_HISTORY);
    fireEvent.click(within(configDialog).getByRole('button', { name: 'Reset Config' }));
    await screen.findByText(LEVELING_DONE.resetConfig);
    expect(screen.getByLabelText('Most XP per message')).toHaveProperty('value', '10');
    fireEvent.click(screen.getByRole('button', { name: 'Reset Leveling' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset leveling?' });
    within(dialog).getByText(LEVELING_CONFIRM.resetAll);
    within(dialog).getByText(COUNTING);
    await within(dialog).findByText('Remove the XP of 1,204 members and delete 5 reward roles.');
    within(dialog).getByText(UNDO_NOTE);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Leveling' }));
    await screen.findByText(LEVELING_DONE.resetAll);
    expect(
      api.calls.filter((c) => c.method === 'POST' && c.path.includes('/leveling/reset')).map((c) => c.path),
    ).toEqual([`${base}/leveling/reset-config`, `${base}/leveling/reset-all`]);
  });

  it('does not reset when the confirm is declined, and still asks when the count fails', async () => {
    signInAda();
    const api = levelingApi([], [], {
      [`GET ${base}/leveling/reset-all/preview`]: {
        status: 503,
        body: { error: 'discord_unavailable', message: 'Discord did not answer' },
      },
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Reset Leveling' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset leveling?' });
    await within(dialog).findByText(COUNT_FAILED);
    expect(within(dialog).getByRole('button', { name: 'Reset Leveling' })).toHaveProperty('disabled', false);
    fireEvent.keyDown(dialog, { key: 'Escape' });
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.some((c) => c.method === 'POST' && c.path.includes('/reset'))).toBe(false);
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
      {
        id: 2,
        role_name: 'Veteran',
        level_required: 20,
        is_image_role: true,
        role_id: '555555',
        holders: 12,
      },
      { id: 1, role_name: 'Rookie', level_required: 5, is_image_role: false, role_id: null, holders: 0 },
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

describe('leveling, issue 23', () => {
  const withChannels = {
    [`GET ${base}/channels`]: { status: 200, body: { channels: CHANNELS } },
    // No-XP channels may be voice channels: that picker asks for every kind.
    [`GET ${base}/channels?kind=any`]: {
      status: 200,
      body: { channels: [...CHANNELS, { id: '300000000000000016', name: 'Lounge', voice: true }] },
    },
  };

  it('shows the on/off switch on every leveling page and switches leveling with enabled alone', async () => {
    signInAda();
    const api = levelingApi([], [], withChannels);
    for (const page of ['settings', 'roles', 'boosts', 'leaderboard']) {
      const view = renderAt(`/dashboard/leveling/${page}?guild=${STATION.id}`, routes);
      const toggle = await screen.findByRole('switch', { name: /Leveling/ });
      // While the settings load the switch says "Leveling …", unchecked: wait for the loaded "off".
      await waitFor(() => expect(toggle.textContent).toContain('off'));
      expect(toggle.getAttribute('aria-checked')).toBe('false');
      view.unmount();
    }
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    const toggle = await screen.findByRole('switch', { name: /Leveling/ });
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    fireEvent.click(toggle);
    await waitFor(() => expect(toggle.getAttribute('aria-checked')).toBe('true'));
    expect(toggle.textContent).toContain('on');
    expect(api.calls.filter((c) => c.method === 'PUT').map((c) => c.body)).toEqual([{ enabled: true }]);
  });

  it('picks no-XP channels and roles, and sends them with the message, mode and visibility', async () => {
    signInAda();
    const api = levelingApi([], [], withChannels);
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const channels = await screen.findByRole('combobox', { name: 'No-XP channels' });
    await waitFor(() => expect(channels).toHaveProperty('disabled', false));
    fireEvent.focus(channels);
    const channelList = await screen.findByRole('listbox', { name: 'No-XP channels' });
    fireEvent.click(within(channelList).getByRole('option', { name: '#general' }));
    fireEvent.focus(channels);
    const withVoice = await screen.findByRole('listbox', { name: 'No-XP channels' });
    fireEvent.click(within(withVoice).getByRole('option', { name: '🔊 Lounge' }));
    const roles = screen.getByRole('combobox', { name: 'No-XP roles' });
    fireEvent.focus(roles);
    const roleList = await screen.findByRole('listbox', { name: 'No-XP roles' });
    fireEvent.click(within(roleList).getByRole('option', { name: 'Muted' }));
    const chips = screen.getByRole('list', { name: 'No-XP roles' });
    within(chips).getByText('Muted');
    // A picked one is not offered again; a chip's button takes it back out.
    fireEvent.focus(roles);
    const again = await screen.findByRole('listbox', { name: 'No-XP roles' });
    expect(within(again).queryByRole('option', { name: 'Muted' })).toBeNull();
    within(again).getByRole('option', { name: 'Crew' });
    fireEvent.blur(roles);
    fireEvent.click(screen.getByLabelText('Highest only', { exact: false }));
    fireEvent.click(screen.getByLabelText(/^Anyone/));
    screen.getByRole('link', { name: `http://localhost:3000/leaderboard/${STATION.id}` });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toMatchObject({
      no_xp_channels: ['300000000000000011', '300000000000000016'],
      no_xp_roles: ['300000000000000022'],
      reward_mode: 'highest',
      leaderboard_visibility: 'anyone',
    });
    fireEvent.click(within(chips).getByRole('button', { name: 'Remove role Muted' }));
    expect(screen.queryByRole('list', { name: 'No-XP roles' })).toBeNull();
  });

  it('previews the level-up message as it is typed, inserts placeholders and shows mentions as @name', async () => {
    signInAda();
    levelingApi([role(1, 3, 'Pilot')], [], withChannels);
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const box = (await screen.findByLabelText('Level-up message')) as HTMLTextAreaElement;
    const preview = screen.getByTestId('level-up-preview');
    await waitFor(() => expect(preview.textContent).toBe('🎉 @ada reached level 3!'));
    fireEvent.change(box, { target: { value: 'GG ' } });
    box.setSelectionRange(3, 3);
    fireEvent.click(screen.getByRole('button', { name: /^Insert \{username\}/ }));
    fireEvent.click(screen.getByRole('button', { name: /^Insert \{rewards\}/ }));
    await waitFor(() => expect(box.value).toBe('GG {username}{rewards}'));
    fireEvent.change(box, { target: { value: '{user} is level {level} in {server}: {rewards}' } });
    await waitFor(() => expect(preview.textContent).toBe('@ada is level 3 in Sandbox Station: Pilot'));
    expect(preview.querySelector('.discord-mention')?.textContent).toBe('@ada');
  });

  it('says which announcement channel a level-up goes to, and shows a 400 on the destination at the field', async () => {
    signInAda();
    const message = 'level_up_destination channel needs an announcement channel; pick one first.';
    levelingApi([], [], {
      ...withChannels,
      [`GET ${base}/leveling`]: {
        status: 200,
        body: {
          leveling: { ...SETTINGS, level_up_destination: 'dm', announcement_channel: '300000000000000013' },
          roles: [],
          boosts: [],
          rank_card_background: false,
        },
      },
      [`PUT ${base}/leveling`]: {
        status: 400,
        body: { error: 'invalid_input', message, issues: [{ path: 'level_up_destination', message }] },
      },
    });
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const destination = await screen.findByLabelText('Send level-up messages to');
    fireEvent.change(destination, { target: { value: 'channel' } });
    await screen.findByText('Posted in #level-ups, the announcement channel.');
    fireEvent.change(await screen.findByLabelText('Announcement channel'), { target: { value: '' } });
    screen.getByText('No announcement channel is set above: pick one, or choose another place.');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const issue = await screen.findByText(message);
    expect(issue.id).toBe('lv-destination-issue');
    // The select says it was refused and points at why, for a screen reader too.
    expect(destination.getAttribute('aria-invalid')).toBe('true');
    expect(destination.getAttribute('aria-describedby')).toBe('lv-destination-issue');
    // Said at the field, not in the red box on top.
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('says Reset Config also turns leveling off', () => {
    expect(LEVELING_CONFIRM.resetConfig).toContain('This also turns leveling off.');
  });

  it('adds a channel boost, lists it as Channel #name, and states the rule', async () => {
    signInAda();
    const boosts: unknown[] = [];
    const api = levelingApi([], boosts, {
      ...withChannels,
      [`POST ${base}/leveling/channel-boosts`]: {
        status: 201,
        body: { id: 5, multiplier: 0.5, user_id: '-channel:300000000000000011', expires_at: null },
      },
    });
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    await screen.findByText(BOOST_RULE);
    fireEvent.change(screen.getByLabelText('Applies to'), { target: { value: 'channel' } });
    const channel = await screen.findByLabelText('Channel');
    await waitFor(() => expect(channel).toHaveProperty('disabled', false));
    fireEvent.change(channel, { target: { value: '300000000000000011' } });
    fireEvent.change(screen.getByLabelText('Multiplier'), { target: { value: '0.5' } });
    boosts.push({ id: 5, multiplier: 0.5, user_id: '-channel:300000000000000011', expires_at: null });
    fireEvent.click(screen.getByRole('button', { name: 'Add boost' }));
    await screen.findByText('Channel #general');
    expect(api.calls.find((c) => c.path === `${base}/leveling/channel-boosts`)?.body).toEqual({
      channel_id: '300000000000000011',
      multiplier: 0.5,
      expires_at: null,
    });
    expect(boostTargetLabel({ user_id: '-channel:300000000000000011' })).toBe('Channel 300000000000000011');
  });

  it('says what a boost of -3 and a level of -2 were stored as', async () => {
    signInAda();
    const api = levelingApi([], [], {
      [`POST ${base}/leveling/boosts`]: {
        status: 201,
        body: { id: 6, multiplier: 1, user_id: null, expires_at: null },
      },
    });
    const view = renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Multiplier'), { target: { value: '-3' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add boost' }));
    await screen.findByText(
      'Stored as ×1: a multiplier cannot be negative, so this boost changes nothing. Remove it, or add one of 0 to stop XP.',
    );
    expect(api.calls.find((c) => c.path === `${base}/leveling/boosts`)?.body).toMatchObject({
      multiplier: 1,
    });
    view.unmount();

    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Level required'), { target: { value: '-2' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add role' }));
    await screen.findByText('Stored at level 0: a level cannot be negative.');
  });

  it('asks before pruning leavers, counting whose XP goes', async () => {
    signInAda();
    const api = levelingApi([], [], {
      [`GET ${base}/leveling/prune-leavers/preview`]: {
        status: 200,
        body: { summary: 'Remove the XP of 12 members who left.', roles: 0, members: 12 },
      },
      [`POST ${base}/leveling/prune-leavers`]: {
        status: 202,
        body: { job_id: jobIdFor('leveling.prune-leavers', STATION.id) },
      },
    });
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Prune leavers' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Prune leavers?' });
    within(dialog).getByText(LEVELING_CONFIRM.prune);
    await within(dialog).findByText('Remove the XP of 12 members who left.');
    within(dialog).getByText(UNDO_NOTE);
    expect(api.calls.some((c) => c.method === 'POST')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Prune leavers' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/prune-leavers'))).toBe(true),
    );
  });

  it('asks before deleting a reward role, saying how many members hold it', async () => {
    signInAda();
    const veteran = { ...role(2, 20, 'Veteran'), holders: 12 };
    const api = levelingApi([veteran], [], {
      [`DELETE ${base}/leveling/roles/2`]: { status: 204 },
      [`GET ${base}/leveling/roles/2/delete-preview`]: {
        status: 200,
        body: { summary: 'Delete the role "Veteran" held by 12 members.', roles: 1, members: 12 },
      },
    });
    renderAt(`/dashboard/leveling/roles?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete Veteran' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete this reward role?' });
    within(dialog).getByText('Delete the reward role "Veteran"? 12 members hold Veteran; they lose it.');
    await within(dialog).findByText('Delete the role "Veteran" held by 12 members.');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.method === 'DELETE')).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Delete Veteran' }));
    dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete role' }));
    await waitFor(() => expect(api.calls.some((c) => c.method === 'DELETE')).toBe(true));
    expect(deleteRoleConfirm({ role_name: 'Pilot', holders: 1 })).toBe(
      'Delete the reward role "Pilot"? 1 member holds Pilot; they lose it.',
    );
    expect(deleteRoleConfirm({ role_name: 'Pilot', holders: 0 })).toBe(
      'Delete the reward role "Pilot"? No member holds Pilot yet.',
    );
  });
});
