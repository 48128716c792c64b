import { LANDING_COMMANDS } from '@spacecadet/core/product-features';
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter, Route, Routes } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { LocationProbe, renderAt } from '../../test/render.tsx';
import { defaultInviteUrl } from '../lib/invite-url.ts';
import { getInstalledGuilds } from '../lib/preferences.ts';
import { SESSION_KEYS } from '../lib/session.ts';
import { TAGLINE_PAUSE_MS } from '../site.ts';
import { TAGLINES } from './Hero.tsx';
import { Landing } from './Landing.tsx';
import { useTypedText } from './useTypedText.ts';

afterEach(() => {
  // Unmount first, so a late lazy import cannot reach the real fetch.
  cleanup();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

const routes = (
  <>
    <Route path="/" element={<Landing />} />
    <Route path="/dashboard" element={<p>Dashboard page</p>} />
  </>
);

describe('Landing', () => {
  it('records an installed guild and goes to its dashboard', async () => {
    fakeApi(() => undefined);
    renderAt('/?install=success&guild_id=300000000000000001', routes);
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe('/dashboard?guild=300000000000000001'),
    );
    expect(getInstalledGuilds()).toEqual(['300000000000000001']);
  });

  it('uses the invite URL from the API', async () => {
    fakeApi(({ path }) =>
      path === '/api/invite-url'
        ? { status: 200, body: { url: 'https://discord.com/oauth2/authorize?x=1' } }
        : undefined,
    );
    renderAt('/', routes);
    // The API client is loaded lazily after first paint.
    await waitFor(() =>
      expect(screen.getAllByRole('link', { name: 'Add to Discord' })[0]?.getAttribute('href')).toBe(
        'https://discord.com/oauth2/authorize?x=1',
      ),
    );
  });

  it('falls back silently to the built-in invite link when the API fails', async () => {
    const api = fakeApi(() => ({ status: 502, body: { error: 'invite_fetch_failed', message: 'down' } }));
    renderAt('/', routes);
    await waitFor(() => expect(api.calls.length).toBeGreaterThan(0));
    for (const link of screen.getAllByRole('link', { name: 'Add to Discord' })) {
      expect(link.getAttribute('href')).toBe(defaultInviteUrl());
    }
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('has the header anchors and the coming-soon features', () => {
    fakeApi(() => undefined);
    renderAt('/', routes);
    for (const name of ['Features', 'Terms', 'Privacy', 'Contact']) screen.getByRole('link', { name });
    screen.getByRole('button', { name: 'Sign in' });
    screen.getByRole('button', { name: /^Effects (on|off)$/ });
    expect(screen.queryByText(/\bFX\b/)).toBeNull();
    expect(screen.getAllByText('Coming Soon').length).toBeGreaterThan(1);
  });

  it('starts the PKCE sign-in from each of its sign-in buttons', async () => {
    fakeApi(() => undefined);
    const assign = vi.fn();
    vi.stubGlobal('location', { ...window.location, assign, origin: window.location.origin });
    renderAt('/', routes);
    const buttons = ['Sign in', 'Open the dashboard', 'Sign in to the dashboard'].map((name) =>
      screen.getByRole('button', { name }),
    );
    for (const [index, button] of buttons.entries()) {
      act(() => button.click());
      await waitFor(() => expect(assign).toHaveBeenCalledTimes(index + 1));
      const url = new URL(String(assign.mock.calls[index]?.[0]));
      expect(url.pathname).toBe('/oauth2/authorize');
      expect(url.searchParams.get('code_challenge_method')).toBe('S256');
      expect(url.searchParams.get('state')).toBe(window.sessionStorage.getItem(SESSION_KEYS.state));
    }
  });

  it('marks the features the bot does not have yet Coming Soon, and only those', () => {
    fakeApi(() => undefined);
    renderAt('/', routes);
    const grid = within(screen.getByRole('region', { name: 'What Space Cadet does' }));
    const soon = (title: string) => {
      const card = grid.getByRole('heading', { level: 3, name: new RegExp(`^${title}`) }).closest('li');
      return card?.querySelector('.badge-soon')?.textContent === 'Coming Soon';
    };
    // Built and working end to end.
    for (const title of [
      'Color Roles',
      'Personality Roles',
      'Role Menus',
      'Leveling',
      'Welcome',
      'Slash commands',
      'Web dashboard',
      'Auto-reconnect',
    ])
      expect(soon(title), title).toBe(false);
    // The advertised cards stay, marked; screens without their bot side are marked too.
    for (const title of ['Dictionary & translation', 'Logging', 'Automod', 'Starboard']) {
      expect(soon(title), title).toBe(true);
    }
    // Nothing unbuilt is claimed outside a Coming Soon card (hero, taglines, other sections).
    const claims = /dictionary|translat|anti-spam|mod logs|context menu|type \/ for every/i;
    for (const card of screen.getAllByRole('listitem')) {
      if (!card.querySelector('.badge-soon')) expect(card.textContent ?? '').not.toMatch(claims);
    }
    for (const line of TAGLINES) expect(line).not.toMatch(claims);
    expect(screen.getByRole('region', { name: /mission control/ }).textContent).not.toMatch(claims);
  });

  it("lists the bot's slash commands from the feature list, each with its feature", () => {
    fakeApi(() => undefined);
    renderAt('/', routes);
    const card = screen.getByRole('heading', { level: 3, name: 'Slash commands' }).closest('li');
    if (!card) throw new Error('no Slash commands card');
    const commands = within(card)
      .getAllByRole('listitem')
      .map((item) => item.textContent);
    expect(commands).toEqual(LANDING_COMMANDS.map((command) => `/${command.name} ${command.feature.name}`));
    expect(commands).toEqual([
      '/colors Color Roles',
      '/rank Leveling',
      '/leaderboard Leveling',
      '/xp Leveling',
      '/rank-color Leveling',
    ]);
    expect(screen.getByRole('region', { name: 'What Space Cadet does' }).textContent).toContain(
      'Color Roles, Personality Roles, Reaction Roles, Role Menus, Welcome, Leveling and the dashboard work today.',
    );
    // Leveling works: no card may say otherwise.
    expect(screen.getByRole('region', { name: 'What Space Cadet does' }).textContent).not.toMatch(
      /do not earn XP yet|Today there is/,
    );
  });
});

function Typed({ lines }: { lines: string[] }) {
  return <p data-testid="typed">{useTypedText(lines, TAGLINE_PAUSE_MS)}</p>;
}

describe('typed tagline', () => {
  it('keeps the caret on the line of the last word typed', () => {
    vi.useFakeTimers();
    fakeApi(() => undefined);
    const { container } = renderAt('/', routes);
    const line = TAGLINES[0];
    act(() => vi.advanceTimersByTime(400 + 45 * line.length + 100));
    expect(container.querySelector('.typed')?.textContent).toBe(line);
    // The caret shares an unbreakable span with the last word, so it cannot wrap alone.
    const glued = container.querySelector('.caret')?.parentElement;
    expect(glued?.className).toBe('typed-last');
    expect(glued?.textContent).toBe(line.slice(line.lastIndexOf(' ') + 1));
  });
});

describe('useTypedText', () => {
  it('types a line, holds it for 5000 ms, then erases it', () => {
    vi.useFakeTimers();
    const lines = ['Hi'];
    render(
      <MemoryRouter>
        <Routes>
          <Route path="/" element={<Typed lines={lines} />} />
        </Routes>
        <LocationProbe />
      </MemoryRouter>,
    );
    act(() => vi.advanceTimersByTime(400 + 45 * 2));
    expect(screen.getByTestId('typed').textContent).toBe('Hi');
    act(() => vi.advanceTimersByTime(TAGLINE_PAUSE_MS - 100));
    expect(screen.getByTestId('typed').textContent).toBe('Hi');
    // The pause ends 5000 ms after the last letter (t = 445 + 5000); erasing starts.
    act(() => vi.advanceTimersByTime(60));
    expect(screen.getByTestId('typed').textContent).toBe('H');
  });
});
