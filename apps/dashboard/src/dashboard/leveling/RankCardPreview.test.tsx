import { rankCardAltText, sampleRankCardModel } from '@spacecadet/core';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ADA,
  fakeApi,
  QUIET,
  rankCardPreviewRoute,
  LEVELING_SETTINGS as SETTINGS,
  STATION,
  signInAda,
} from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const ALT = rankCardAltText(sampleRankCardModel(ADA.username));

function previewApi() {
  const preview = rankCardPreviewRoute(STATION.id);
  const api = fakeApi((request) => {
    const key = `${request.method} ${request.path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (request.path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: [] } };
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: [] } };
    if (key === `GET ${base}/leveling`)
      return {
        status: 200,
        body: { leveling: SETTINGS, roles: [], boosts: [], rank_card_background: false },
      };
    if (key === `PUT ${base}/leveling/rank-card/background`)
      return { status: 200, body: { content_type: 'image/png', width: 1, height: 1, size: 70 } };
    return preview.route(request);
  });
  return { api, preview };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('rank card preview', () => {
  it('shows the PNG the API drew, with the sample card in words, and draws it again for a new accent', async () => {
    signInAda();
    const { preview } = previewApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    const image = await screen.findByRole('img', { name: ALT });
    expect(image.getAttribute('src')).toMatch(/^blob:/);
    expect(preview.accents).toEqual([null]);

    fireEvent.change(screen.getByLabelText('Accent color'), { target: { value: '#12ab3' } });
    fireEvent.change(screen.getByLabelText('Accent color'), { target: { value: '#12ab34' } });
    // Debounced: one request for the finished color, none for the half-typed one.
    await waitFor(() => expect(preview.accents).toEqual([null, '#12AB34']));
    await waitFor(() => expect(screen.queryByText('Drawing the preview…')).toBeNull());
    expect(screen.getByRole('img', { name: ALT })).toBeTruthy();
  });

  it('draws it again after a background upload, and shows the API message when it cannot', async () => {
    signInAda();
    const { preview } = previewApi();
    renderAt(`/dashboard/leveling/settings?guild=${STATION.id}`, routes);
    await screen.findByRole('img', { name: ALT });
    preview.state.refuse = 'The accent must be a color like #5865F2';
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'bg.png', { type: 'image/png' });
    fireEvent.change(screen.getByLabelText(/Background image/), { target: { files: [file] } });
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'The accent must be a color like #5865F2',
    );
    expect(preview.accents).toEqual([null, null]);
  });
});
