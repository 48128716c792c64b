import { screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ADA, fakeApi, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const LEFT = { ...STATION, id: '300000000000000009', name: 'Old Outpost' };
const PURGE = '2027-01-02T12:00:00.000Z';

function api(departures: { status: number; body?: unknown }) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, LEFT] };
    if (key === 'GET /api/auth/session')
      return { status: 200, body: { user: ADA, is_owner: false, expires_at: '2030-01-01T00:00:00Z' } };
    if (key === 'GET /api/guild-departures') return departures;
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    return undefined;
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('server rail', () => {
  it('marks a server whose data waits for its purge, saying the date and how to keep it', async () => {
    signInAda();
    api({
      status: 200,
      body: {
        guilds: [
          {
            guild_id: LEFT.id,
            name: LEFT.name,
            icon: null,
            left_at: '2026-12-03T12:00:00.000Z',
            purge_after: PURGE,
          },
        ],
      },
    });
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    const day = new Date(PURGE).toLocaleDateString(undefined, {
      day: 'numeric',
      month: 'long',
      year: 'numeric',
    });
    const left = await screen.findByRole('link', {
      name: `Old Outpost: Space Cadet was removed; its data is deleted on ${day} unless you invite it back`,
    });
    expect(left.querySelector('.rail-badge-pending')).not.toBeNull();
    const kept = screen.getByRole('link', { name: STATION.name });
    expect(kept.querySelector('.rail-badge-pending')).toBeNull();
  });

  it('still lists every server, unmarked, when the departures cannot be read', async () => {
    signInAda();
    api({ status: 503, body: { error: 'postgres_unavailable', message: 'The database is not answering.' } });
    renderAt(`/dashboard?guild=${STATION.id}`, routes);
    await screen.findByRole('link', { name: 'Old Outpost' });
    expect(screen.getByRole('link', { name: STATION.name })).toBeDefined();
    expect(document.querySelector('.rail-badge-pending')).toBeNull();
  });
});
