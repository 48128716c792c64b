import type { LevelCurve, LevelingSettings } from '@spacecadet/contract';
import { totalXpForLevel, xpToNextLevel } from '@spacecadet/core';
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
import { findEnabledButton, renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { CURVE_RECOMPUTE_NOTE, XP_RANGE_MESSAGE } from './numbers-model.ts';

/** Issue 39 §3: the settings page edits the XP range, the level curve, XP decay and seasons. */

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const page = `/dashboard/leveling/settings?guild=${STATION.id}`;

/** The leveling API: GET answers `start`, a PUT merges its body (or answers `refusal` once). */
function numbersApi(start: Partial<LevelingSettings> = {}, refusal?: { path: string; message: string }) {
  let stored: Record<string, unknown> = { ...SETTINGS, ...start };
  let refuse = refusal;
  const route: FakeRoute = ({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: [] } };
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: [] } };
    if (key === `GET ${base}/leveling`)
      return { status: 200, body: { leveling: stored, roles: [], boosts: [], rank_card_background: false } };
    if (key === `PUT ${base}/leveling`) {
      if (refuse) {
        const issue = refuse;
        refuse = undefined;
        return { status: 400, body: { error: 'invalid_input', message: issue.message, issues: [issue] } };
      }
      stored = { ...stored, ...(body as object) };
      return { status: 200, body: stored };
    }
    return undefined;
  };
  return fakeApi(route);
}

type Api = ReturnType<typeof numbersApi>;
const puts = (api: Api) => api.calls.filter((call) => call.method === 'PUT');
const lastPut = (api: Api) => puts(api).at(-1)?.body as Record<string, unknown> | undefined;

function type(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function save(api: Api, count: number) {
  fireEvent.click(await findEnabledButton('Save'));
  await waitFor(() => expect(puts(api)).toHaveLength(count));
  await screen.findByText('Saved');
}

/** The preview row of one level: its total and its step, as the page shows them. */
function previewRow(level: number) {
  const row = screen.getByTestId(`curve-level-${level}`);
  const [total, step] = within(row).getAllByRole('cell');
  return { total: total?.textContent, step: step?.textContent };
}

const shown = (n: number) => n.toLocaleString('en-US');

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('leveling settings, the admin’s own numbers', () => {
  it('edits the XP range as two boxes, says the average, and sends xp_min/xp_max', async () => {
    signInAda();
    const api = numbersApi();
    renderAt(page, routes);
    await screen.findByLabelText('Least XP per message');
    // The stored 10–10 reads as one amount.
    screen.getByText('10 XP per message');
    type('Least XP per message', '15');
    type('Most XP per message', '25');
    screen.getByText('15–25 XP per message, 20 on average');
    type('Most XP per message', '18');
    screen.getByText('15–18 XP per message, 16.5 on average');
    type('Most XP per message', '25');
    await save(api, 1);
    const body = lastPut(api);
    expect(body).toMatchObject({ xp_min: 15, xp_max: 25 });
    expect(body).not.toHaveProperty('xp_per_message');
    // The curve did not change: it is not sent (a new curve starts a recompute).
    expect(body).not.toHaveProperty('level_curve');
    type('Least XP per message', '25');
    screen.getByText('25 XP per message');
  });

  it('refuses crossed ends before saving, at the field, and shows the API’s 400 there too', async () => {
    signInAda();
    const api = numbersApi({}, { path: 'xp_min', message: XP_RANGE_MESSAGE });
    renderAt(page, routes);
    await screen.findByLabelText('Least XP per message');
    type('Least XP per message', '30');
    type('Most XP per message', '20');
    const issue = screen.getByText(XP_RANGE_MESSAGE);
    expect(issue.id).toBe('lv-xp-range-issue');
    expect(screen.getByLabelText('Least XP per message').getAttribute('aria-invalid')).toBe('true');
    fireEvent.click(await findEnabledButton('Save'));
    await screen.findByText('Nothing was saved: fix the fields marked above.');
    expect(puts(api)).toHaveLength(0);
    // A range the page accepts but the API refuses: its sentence, at the same field, not on top.
    type('Most XP per message', '40');
    expect(screen.queryByText(XP_RANGE_MESSAGE)).toBeNull();
    expect(screen.queryByText('Nothing was saved: fix the fields marked above.')).toBeNull();
    fireEvent.click(await findEnabledButton('Save'));
    await waitFor(() => expect(puts(api)).toHaveLength(1));
    expect((await screen.findByText(XP_RANGE_MESSAGE)).id).toBe('lv-xp-range-issue');
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('previews levels 1–50 of the formula as typed, with core’s totals, and sends the new curve', async () => {
    signInAda();
    const api = numbersApi();
    renderAt(page, routes);
    await screen.findByLabelText('a (× L²)');
    const standard: LevelCurve = { kind: 'quadratic', a: 5, b: 50, c: 100 };
    expect(previewRow(10)).toEqual({
      total: shown(totalXpForLevel(10, standard)),
      step: shown(xpToNextLevel(9, standard)),
    });
    screen.getByTestId('curve-level-50');
    expect(screen.queryByTestId('curve-level-51')).toBeNull();
    screen.getByText(CURVE_RECOMPUTE_NOTE);
    type('a (× L²)', '10');
    type('c (every level)', '40');
    const steeper: LevelCurve = { kind: 'quadratic', a: 10, b: 50, c: 40 };
    expect(previewRow(10)).toEqual({
      total: shown(totalXpForLevel(10, steeper)),
      step: shown(xpToNextLevel(9, steeper)),
    });
    expect(previewRow(10).total).not.toBe(shown(totalXpForLevel(10, standard)));
    // c must be at least 1: the contract's sentence, and no preview of a curve that cannot be.
    type('c (every level)', '0');
    screen.getByText('c must be at least 1: every level takes some XP');
    expect(screen.queryByTestId('curve-level-1')).toBeNull();
    type('c (every level)', '40');
    await save(api, 1);
    expect(lastPut(api)?.level_curve).toEqual(steeper);
  });

  it('parses a table of steps, previews its last step repeating, and resets to the default formula', async () => {
    signInAda();
    const api = numbersApi();
    renderAt(page, routes);
    fireEvent.click(await screen.findByRole('radio', { name: /Table/ }));
    // It starts from the formula's first ten steps (5·L² + 50·L + 100).
    expect(screen.getByLabelText('XP for each level')).toHaveProperty(
      'value',
      '100, 155, 220, 295, 380, 475, 580, 695, 820, 955',
    );
    type('XP for each level', '100, 200\n300');
    const table: LevelCurve = { kind: 'table', xp: [100, 200, 300] };
    expect(previewRow(5)).toEqual({ total: shown(totalXpForLevel(5, table)), step: '300' });
    expect(previewRow(5).total).toBe('1,200');
    type('XP for each level', '100, lots');
    screen.getByText(/Each level in the table takes a whole number of XP/);
    type('XP for each level', '100, 200\n300');
    await save(api, 1);
    expect(lastPut(api)?.level_curve).toEqual(table);
    // Back to 5/50/100: sent, as the stored curve is now the table.
    fireEvent.click(screen.getByRole('button', { name: 'Reset to default' }));
    expect(screen.getByLabelText('a (× L²)')).toHaveProperty('value', '5');
    expect(screen.getByLabelText('b (× L)')).toHaveProperty('value', '50');
    expect(screen.getByLabelText('c (every level)')).toHaveProperty('value', '100');
    await save(api, 2);
    expect(lastPut(api)?.level_curve).toEqual({ kind: 'quadratic', a: 5, b: 50, c: 100 });
  });

  it('turns XP decay on with its numbers, and off as null', async () => {
    signInAda();
    const api = numbersApi();
    renderAt(page, routes);
    await screen.findByLabelText('Least XP per message');
    screen.getByText('Off: XP never decays.');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Inactive members lose XP' }));
    type('Days without XP before decay', '14');
    type('Percent of XP lost each week', '2.5');
    screen.getByText(/^Members who earn nothing for 14 days lose 2.5% of their XP each week\./);
    fireEvent.click(
      screen.getByRole('checkbox', { name: "May take members below their current level's floor" }),
    );
    await save(api, 1);
    expect(lastPut(api)?.xp_decay).toEqual({
      percent_per_week: 2.5,
      after_inactive_days: 14,
      below_level_floor: true,
    });
    // A percent the contract refuses is said at the field; nothing is sent.
    type('Percent of XP lost each week', '0');
    screen.getByText('percent_per_week must be a number above 0 and at most 100');
    fireEvent.click(screen.getByRole('checkbox', { name: 'Inactive members lose XP' }));
    expect(screen.queryByText(/percent_per_week must be/)).toBeNull();
    await save(api, 2);
    expect(lastPut(api)?.xp_decay).toBeNull();
  });

  it('ends a season every N months, or never (null)', async () => {
    signInAda();
    const api = numbersApi({ season_months: 4 });
    renderAt(page, routes);
    const months = await screen.findByLabelText('Months in a season');
    expect(months).toHaveProperty('value', '4');
    screen.getByText(/The Seasons page shows the hall of fame/);
    type('Months in a season', '13');
    screen.getByText('season_months must be null or a whole number of months from 1 to 12');
    type('Months in a season', '6');
    const keep = screen.getByRole('checkbox', {
      name: /keep their reward roles when a season ends by itself/,
    });
    expect(keep).toHaveProperty('checked', true);
    fireEvent.click(keep);
    await save(api, 1);
    expect(lastPut(api)).toMatchObject({ season_months: 6, season_keep_rewards: false });
    fireEvent.click(screen.getByRole('checkbox', { name: /End a season automatically/ }));
    expect(screen.getByLabelText('Months in a season')).toHaveProperty('disabled', true);
    expect(screen.queryByRole('checkbox', { name: /keep their reward roles/ })).toBeNull();
    await save(api, 2);
    expect(lastPut(api)?.season_months).toBeNull();
  });
});
