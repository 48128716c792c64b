import type { GuildDataSummary, JobStatus } from '@spacecadet/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeApi, STATION, signInAda } from '../../../test/fake-api.ts';
import { GuildData } from './GuildData.tsx';

const dataPath = `/api/guilds/${STATION.id}/data`;
const jobId = `guild-data.delete.${STATION.id}`;

const SUMMARY: GuildDataSummary = {
  guild_id: STATION.id,
  owner: true,
  members_with_xp: 12,
  history_entries: 40,
  role_menus: 2,
  settings: 3,
  total_rows: 71,
  tables: { member_xp: 12, guild_history: 40, role_menus: 2, guild_configs: 1 },
  departure: null,
};

function job(state: JobStatus['state']): JobStatus {
  return {
    id: jobId,
    name: 'guild-data.delete',
    guild_id: STATION.id,
    state,
    progress: state === 'completed' ? 100 : 0,
    error: null,
    ...(state === 'completed' ? { result: { ok: true, summary: 'Deleted: 71 stored rows.' } } : {}),
  } as JobStatus;
}

function show(summary: GuildDataSummary | { status: number; body: unknown }) {
  signInAda();
  let jobState: JobStatus['state'] = 'active';
  const api = fakeApi(({ method, path }) => {
    if (method === 'GET' && path === dataPath)
      return 'status' in summary ? summary : { status: 200, body: summary };
    if (method === 'DELETE' && path === dataPath) return { status: 202, body: { job_id: jobId } };
    if (method === 'GET' && path === `/api/jobs/${jobId}`) {
      const answer = { status: 200, body: job(jobState) };
      jobState = 'completed';
      return answer;
    }
    return undefined;
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <main>
        <GuildData guild={STATION} />
      </main>
    </QueryClientProvider>,
  );
  return api;
}

describe("the overview's server data (owner only)", () => {
  it('shows a loading line, then counts what is stored for the owner', async () => {
    show(SUMMARY);
    expect(screen.getByRole('status').textContent).toMatch(/Checking what is stored/);
    expect(
      await screen.findByText(
        /its settings, the XP of 12 members, 40 History entries and 2 role menus \(71 stored rows in all\)/,
      ),
    ).toBeTruthy();
  });

  it('shows nothing to an admin who is not the owner', async () => {
    const api = show({ ...SUMMARY, owner: false });
    await waitFor(() => expect(api.calls.some((call) => call.path === dataPath)).toBe(true));
    await waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(screen.queryByRole('button', { name: /Delete this server/ })).toBeNull();
    expect(screen.queryByRole('heading')).toBeNull();
  });

  it('confirms with the counts and the server name, then follows the job to its end', async () => {
    const api = show(SUMMARY);
    fireEvent.click(await screen.findByRole('button', { name: /^Delete this server.s data…$/ }));
    const dialog = screen.getByRole('alertdialog', { name: 'Delete everything stored for Sandbox Station?' });
    expect(dialog.textContent).toMatch(/the XP of 12 members, 40 History entries/);
    expect(dialog.textContent).toMatch(/The roles and messages in Discord stay/);
    const confirm = within(dialog).getByRole('button', { name: "Delete this server's data" });

    // A wrong name asks again and sends nothing.
    fireEvent.change(within(dialog).getByLabelText(/Type the server's name/), {
      target: { value: 'Sandbox' },
    });
    fireEvent.click(confirm);
    expect(within(dialog).getByRole('alert').textContent).toBe("That is not the server's name.");
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([]);

    fireEvent.change(within(dialog).getByLabelText(/Type the server's name/), {
      target: { value: 'Sandbox Station' },
    });
    fireEvent.click(confirm);
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.filter((call) => call.method === 'DELETE')).toEqual([
      { method: 'DELETE', path: dataPath, body: { confirm: 'Sandbox Station' } },
    ]);
    expect(
      await screen.findByText('Everything Space Cadet stored for Sandbox Station is deleted.'),
    ).toBeTruthy();
  });

  it('says until when a removed server is kept, and that re-inviting restores it', async () => {
    show({
      ...SUMMARY,
      departure: {
        guild_id: STATION.id,
        left_at: '2026-11-01T10:00:00.000Z',
        purge_after: '2026-12-01T10:00:00.000Z',
      },
    });
    const notice = await screen.findByText(/Space Cadet was removed from Sandbox Station/);
    expect(notice.textContent).toMatch(/re-inviting the bot restores everything/);
    expect(notice.textContent).toMatch(/2026/);
  });

  it('says when nothing is stored, and when the count cannot be read', async () => {
    show({
      ...SUMMARY,
      members_with_xp: 0,
      history_entries: 0,
      role_menus: 0,
      settings: 0,
      total_rows: 0,
      tables: {},
    });
    expect(await screen.findByText('Space Cadet stores nothing for this server.')).toBeTruthy();
  });

  it('shows an error banner when the API fails', async () => {
    show({
      status: 503,
      body: { error: 'service_unavailable', message: 'Database unavailable. Try again shortly.' },
    });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /Could not read what is stored.*Database unavailable/,
    );
  });
});
