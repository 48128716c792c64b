import { CONFIG_NOT_OBJECT, MESSAGES } from '@spacecadet/contract';
import { featureRoutes, LIVE_FEATURES, PRODUCT_FEATURES } from '@spacecadet/core/product-features';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { clearSession } from '../lib/session.ts';
import DashboardApp from './DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;

function standardApi(overrides: Record<string, { status: number; body?: unknown }> = {}) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (overrides[key]) return overrides[key];
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (key === 'GET /api/auth/session')
      return {
        status: 200,
        body: {
          user: { id: '200000000000000001', username: 'ada', discriminator: '0', avatar: null },
          is_owner: false,
          expires_at: '2030-01-01T00:00:00Z',
        },
      };
    if (path.startsWith('/api/bot/in-guild/'))
      return { status: 200, body: { inGuild: path.endsWith(STATION.id) } };
    if (key === `GET /api/guilds/${STATION.id}/config`)
      return {
        status: 200,
        body: { data: { color_roles_mode: 'basic' }, updated_by: null, updated_at: null },
      };
    if (key === `PUT /api/guilds/${STATION.id}/config`)
      return { status: 200, body: { updated_by: '200000000000000001', updated_at: '2026-11-22T00:00:00Z' } };
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

const EMPTY_REACTION_ROLES = {
  color_roles: [],
  personality_roles: [],
  channels: { color_roles: null, personality_roles: null },
  panels: { color_roles: null, personality_roles: null },
  updated_at: null,
  updated_by: null,
};

describe('dashboard states', () => {
  it('asks to sign in, with a Home link, when no user is stored', () => {
    renderAt('/dashboard', routes);
    screen.getByText(MESSAGES.signInRequired);
    expect(screen.getByRole('link', { name: 'Home' }).getAttribute('href')).toBe('/');
  });

  it('renders nothing on a Coming Soon page without a user', () => {
    const { container } = renderAt('/dashboard/automod', routes);
    expect(container.querySelector('main')).toBeNull();
  });

  it('shows Session Expired with Re-Authorize after the session expired', () => {
    clearSession('expired');
    renderAt('/dashboard', routes);
    screen.getByText('Session Expired');
    screen.getByRole('button', { name: 'Re-Authorize' });
  });

  it('switches to Session Expired when a call answers 401 session_expired', async () => {
    signInAda();
    standardApi({
      'GET /api/discord/me/guilds': { status: 401, body: { error: 'session_expired', message: 'x' } },
    });
    renderAt('/dashboard', routes);
    await screen.findByText('Session Expired');
  });

  it('says No admin servers', async () => {
    signInAda();
    standardApi({ 'GET /api/discord/me/guilds': { status: 200, body: [] } });
    renderAt('/dashboard', routes);
    expect((await screen.findAllByText(MESSAGES.noAdminServers)).length).toBeGreaterThan(0);
  });

  it('explains a temporary guild fetch failure', async () => {
    signInAda();
    standardApi({
      'GET /api/discord/me/guilds': {
        status: 502,
        body: { error: 'discord_guilds_fetch_failed', message: 'x' },
      },
    });
    renderAt('/dashboard', routes);
    // 5xx answers are retried twice with backoff before the message shows.
    const messages = await screen.findAllByText(MESSAGES.discordGuildsFetchFailed);
    expect(messages.length).toBeGreaterThan(0);
  });
});

describe('config sidebar', () => {
  it("opens the current page's group and marks its link as the current page", async () => {
    signInAda();
    standardApi();
    renderAt(`/dashboard/automod?guild=${STATION.id}`, routes);
    const sidebar = await screen.findByRole('complementary', { name: 'Configuration' });
    expect(within(sidebar).getByRole('button', { name: 'Automod' }).getAttribute('aria-expanded')).toBe(
      'true',
    );
    const link = within(sidebar).getByRole('link', { name: 'Automod' });
    expect(link.getAttribute('aria-current')).toBe('page');
    within(sidebar).getByRole('link', { name: 'Filters' });
    // Other groups stay as they were (closed).
    expect(within(sidebar).getByRole('button', { name: 'Leveling' }).getAttribute('aria-expanded')).toBe(
      'false',
    );
  });
});

describe('the feature list in the dashboard', () => {
  /** The title of the screen the router shows at `path`, once it has one. */
  async function screenTitleAt(path: string): Promise<string> {
    const view = renderAt(`${path}?guild=${STATION.id}`, routes);
    const title = await waitFor(() => {
      const heading = document.getElementById('page-title');
      if (!heading) throw new Error(`no screen title at ${path}`);
      return heading.textContent ?? '';
    });
    view.unmount();
    return title;
  }

  it("routes every live feature's paths to its own screen, not a placeholder", async () => {
    signInAda();
    standardApi();
    const routesOfLive = LIVE_FEATURES.flatMap(featureRoutes);
    expect(routesOfLive.length).toBeGreaterThan(LIVE_FEATURES.length);
    for (const path of routesOfLive) {
      expect(await screenTitleAt(path), path).not.toMatch(/Page not found|Coming Soon/);
    }
  });

  it("routes every coming-soon feature's path to its Coming Soon page", async () => {
    signInAda();
    standardApi();
    for (const feature of PRODUCT_FEATURES) {
      if (feature.status !== 'coming_soon' || !feature.route) continue;
      expect(await screenTitleAt(feature.route)).toBe(`${feature.name} Coming Soon`);
    }
  });

  it('shows a tile per feature, Coming Soon ones badged, and Server settings opens the configuration', async () => {
    signInAda();
    standardApi();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByRole('heading', { name: 'Sandbox Station' });
    const grid = screen.getByRole('heading', { name: 'Features' }).nextElementSibling as HTMLElement;
    const tiles = within(grid).getAllByRole('link');
    const everyone = PRODUCT_FEATURES.filter((feature) => feature.tile === 'everyone');
    expect(tiles.map((tile) => tile.querySelector('.feature-tile-title')?.firstChild?.textContent)).toEqual(
      everyone.map((feature) => feature.name),
    );
    for (const [index, feature] of everyone.entries()) {
      const tile = tiles[index];
      expect(tile?.getAttribute('href')).toBe(`${feature.route}?guild=${STATION.id}`);
      expect(tile?.querySelector('.badge-soon') !== null, feature.name).toBe(
        feature.status === 'coming_soon',
      );
    }
    within(grid).getByRole('link', { name: /^Personality Roles/ });

    const settings = screen.getByRole('link', { name: 'Server settings' });
    const target = settings.getAttribute('href') ?? '';
    expect(target.startsWith('#')).toBe(true);
    expect(document.getElementById(target.slice(1))?.getAttribute('aria-labelledby')).toBe('config-title');
  });

  it('marks coming-soon links in the sidebar, and live ones not', async () => {
    signInAda();
    standardApi();
    renderAt(`/dashboard/automod?guild=${STATION.id}`, routes);
    const sidebar = await screen.findByRole('complementary', { name: 'Configuration' });
    const status = (name: string) => within(sidebar).getByRole('link', { name, hidden: true }).dataset.status;
    expect(status('Automod')).toBe('coming_soon');
    expect(status('Color Roles')).toBe('live');
    expect(status('Leaderboard')).toBe('live');
  });
});

describe('reaction roles in the sidebar', () => {
  it('lists the Reaction Roles editor in the Reaction Roles group, opened on its page', async () => {
    signInAda();
    standardApi({
      [`GET /api/guilds/${STATION.id}/reaction-roles`]: {
        status: 200,
        body: EMPTY_REACTION_ROLES,
      },
    });
    renderAt(`/dashboard/reaction-roles?guild=${STATION.id}`, routes);
    const sidebar = await screen.findByRole('complementary', { name: 'Configuration' });
    const group = within(sidebar).getByRole('button', { name: 'Reaction Roles' });
    expect(group.getAttribute('aria-expanded')).toBe('true');
    const list = document.getElementById(group.getAttribute('aria-controls') ?? '') as HTMLElement;
    expect(
      within(list)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual(['Color Roles', 'Personality Roles', 'Role Menus', 'Reaction Roles editor']);
    const link = within(list).getByRole('link', { name: 'Reaction Roles editor' });
    expect(link.getAttribute('href')).toBe(`/dashboard/reaction-roles?guild=${STATION.id}`);
    expect(link.getAttribute('aria-current')).toBe('page');
  });
});

describe('overview', () => {
  it('selects the first server, keeps guild in the URL and hides owner tiles from non-owners', async () => {
    signInAda();
    standardApi();
    renderAt('/dashboard', routes);
    await screen.findByRole('heading', { name: 'Sandbox Station' });
    expect(screen.getByTestId('location').textContent).toBe(`/dashboard?guild=${STATION.id}`);
    for (const label of ['Members', 'Msgs Today', 'Commands', 'Uptime']) screen.getByText(label);
    expect(screen.queryByRole('link', { name: /Community Server/ })).toBeNull();
    expect(screen.getByRole('link', { name: /View in-depth stats/ }).getAttribute('href')).toBe(
      `/dashboard/stats?guild=${STATION.id}`,
    );
  });

  it('"Prefer a form?" opens the Reaction Roles editor with both lists', async () => {
    signInAda();
    standardApi({
      [`GET /api/guilds/${STATION.id}/reaction-roles`]: { status: 200, body: EMPTY_REACTION_ROLES },
    });
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    const sentence = await screen.findByText(/Prefer a form\? Edit the lists in the/);
    const link = within(sentence).getByRole('link', { name: 'Reaction Roles editor' });
    fireEvent.click(link);
    await screen.findByRole('heading', { name: 'Color Roles' }, { timeout: 10_000 });
    screen.getByRole('heading', { name: 'Personality Roles' });
    expect(screen.getByTestId('location').textContent).toBe(`/dashboard/reaction-roles?guild=${STATION.id}`);
  });

  it('prompts to invite the bot where it is missing', async () => {
    signInAda();
    standardApi();
    renderAt(`/dashboard?guild=${QUIET.id}`, routes);
    const invite = await screen.findByRole('link', { name: 'Invite to Server' });
    expect(invite.getAttribute('href')).toBe(`http://127.0.0.1:4000/install?guildId=${QUIET.id}`);
  });

  it('refuses to save invalid JSON and saves a valid object', async () => {
    signInAda();
    const api = standardApi();
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    const editor = await screen.findByLabelText('Configuration JSON');
    await waitFor(() => expect((editor as HTMLTextAreaElement).value).toContain('color_roles_mode'));
    fireEvent.change(editor, { target: { value: '{ nope' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    screen.getByText(MESSAGES.invalidJson);
    fireEvent.click(screen.getByRole('button', { name: 'Format JSON' }));
    screen.getByText(MESSAGES.invalidJson);
    // JSON, but not an object: said as such, not as Invalid JSON.
    for (const notObject of ['[1, 2]', '"text"', '42', 'null']) {
      fireEvent.change(editor, { target: { value: notObject } });
      fireEvent.click(screen.getByRole('button', { name: 'Save' }));
      screen.getByText(CONFIG_NOT_OBJECT);
      expect(screen.queryByText(MESSAGES.invalidJson)).toBeNull();
    }
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(editor, { target: { value: '{"a":1}' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(/^Saved/);
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ a: 1 });
  });
});

describe('reaction roles', () => {
  it('checks both lists before saving', async () => {
    signInAda();
    const api = standardApi({
      [`GET /api/guilds/${STATION.id}/reaction-roles`]: {
        status: 200,
        body: EMPTY_REACTION_ROLES,
      },
    });
    renderAt(`/dashboard/reaction-roles?guild=${STATION.id}`, routes);
    await screen.findByRole('heading', { name: 'Color Roles' });
    const [addColor, addPersonality] = screen.getAllByRole('button', { name: 'Add row' });
    if (!addColor || !addPersonality) throw new Error('Add row buttons missing');
    fireEvent.click(addColor);
    fireEvent.click(addPersonality);
    fireEvent.change(screen.getByLabelText('Emoji (row 1)', { selector: '#color_roles-0-emoji' }), {
      target: { value: '🔴' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    screen.getByText('Color Roles: Row 1: emoji and role_id required');
    screen.getByText('Personality Roles: Row 1: emoji and role_id required');
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.click(screen.getByRole('button', { name: 'Show JSON' }));
    screen.getByLabelText('Raw JSON');
    screen.getByRole('button', { name: 'Hide JSON' });
  });

  /** GET/PUT reaction roles backed by one stored state; each PUT bumps updated_at. */
  function reactionRolesApi() {
    let stored = {
      color_roles: [{ emoji: '🔴', role_id: '300000000000000021' }],
      personality_roles: [] as Array<{ emoji: string; role_id: string }>,
      channels: EMPTY_REACTION_ROLES.channels,
      panels: EMPTY_REACTION_ROLES.panels,
      updated_at: null as string | null,
      updated_by: null as string | null,
    };
    let saves = 0;
    const base = `/api/guilds/${STATION.id}/reaction-roles`;
    return fakeApi(({ method, path, body }) => {
      if (path === base && method === 'GET') return { status: 200, body: stored };
      if (path === base && method === 'PUT') {
        saves += 1;
        const updated_at = `2026-11-22T00:00:0${saves}Z`;
        stored = { ...stored, ...(body as typeof stored), updated_at, updated_by: '200000000000000001' };
        return { status: 200, body: { updated_at, updated_by: '200000000000000001' } };
      }
      if (path === '/api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
      if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
      return undefined;
    });
  }

  async function openReactionRoles() {
    signInAda();
    const api = reactionRolesApi();
    renderAt(`/dashboard/reaction-roles?guild=${STATION.id}`, routes);
    await screen.findByDisplayValue('300000000000000021');
    return api;
  }

  it('keeps the editor after a save: Saved shows and the JSON view stays open', async () => {
    const api = await openReactionRoles();
    screen.getByText('1 row');
    fireEvent.click(screen.getByRole('button', { name: 'Show JSON' }));
    fireEvent.change(screen.getByLabelText('Label (row 1)', { selector: '#color_roles-0-label' }), {
      target: { value: 'Red' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    // The refetch after the save brings a new updated_at; the editor must not start over.
    await waitFor(() =>
      expect(api.calls.filter((c) => c.method === 'GET' && c.path.includes('reaction-roles'))).toHaveLength(
        2,
      ),
    );
    await new Promise((resolve) => setTimeout(resolve, 50));
    screen.getByText('Saved');
    screen.getByRole('button', { name: 'Hide JSON' });
    expect((screen.getByLabelText('Raw JSON') as HTMLTextAreaElement).value).toContain('"label": "Red"');
  });

  it('says why Save does nothing on invalid JSON, beside the button, and marks blank row fields', async () => {
    const api = await openReactionRoles();
    screen.getByText('0 rows');
    fireEvent.click(screen.getByRole('button', { name: 'Show JSON' }));
    fireEvent.change(screen.getByLabelText('Raw JSON'), { target: { value: '{ nope' } });
    const save = screen.getByRole('button', { name: 'Save' });
    fireEvent.click(save);
    const alert = screen
      .getAllByRole('alert')
      .find((node) => node.textContent?.includes(MESSAGES.invalidJson));
    expect(alert?.parentElement).toBe(save.parentElement);
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);

    fireEvent.change(screen.getByLabelText('Raw JSON'), {
      target: {
        value: '{"color_roles":[{"emoji":"🔴","role_id":"300000000000000021"},{"emoji":"🟦"}]}',
      },
    });
    const emoji = screen.getByLabelText('Emoji (row 2)', { selector: '#color_roles-1-emoji' });
    const roleId = screen.getByLabelText('Role (row 2)', { selector: '#color_roles-1-role_id' });
    expect(roleId.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(save);
    screen.getByText('Color Roles: Row 2: emoji and role_id required');
    expect(roleId.getAttribute('aria-invalid')).toBe('true');
    expect(emoji.getAttribute('aria-invalid')).toBeNull();
    expect(
      screen
        .getByLabelText('Role (row 1)', { selector: '#color_roles-0-role_id' })
        .getAttribute('aria-invalid'),
    ).toBeNull();
    expect(api.calls.some((c) => c.method === 'PUT')).toBe(false);
  });

  it('explains a forbidden server in words and keeps the Server select filled', async () => {
    signInAda();
    standardApi({
      'GET /api/discord/me/guilds': { status: 200, body: [] },
      [`GET /api/guilds/${STATION.id}/reaction-roles`]: {
        status: 403,
        body: { error: 'forbidden', message: 'You do not manage this server' },
      },
    });
    renderAt(`/dashboard/reaction-roles?guild=${STATION.id}`, routes);
    await screen.findByText('You do not manage this server');
    expect(screen.queryByText('forbidden')).toBeNull();
    const select = screen.getByLabelText('Server') as HTMLSelectElement;
    expect(select.selectedOptions[0]?.textContent ?? '').not.toBe('');
  });
});
