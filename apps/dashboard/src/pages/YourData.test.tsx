import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, onTestFinished, vi } from 'vitest';
import { ADA, fakeApi, signInAda } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { clearSession, getStoredUser } from '../lib/session.ts';
import YourData, { YOUR_DATA_TEXT as TEXT } from './YourData.tsx';

const routes = <Route path="/account" element={<YourData />} />;

const EXPORT = {
  user_id: ADA.id,
  exported_at: '2026-11-28T09:00:00.000Z',
  sessions: [],
  servers: [],
  history: [],
  redis: [],
};
const ERASED = {
  xp_rows: 2,
  daily_rows: 5,
  picks: 1,
  level_ups: 0,
  boosts: 0,
  history_entries: 3,
  settings_rows: 0,
  redis_keys: 4,
  sessions_revoked: 2,
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  clearSession();
});

/** The Blobs and file names the page hands to the browser as downloads. */
function captureDownloads() {
  const files: Array<{ name: string; blob: Blob }> = [];
  const created: Blob[] = [];
  const createObjectURL = URL.createObjectURL;
  URL.createObjectURL = (blob: Blob) => {
    created.push(blob);
    return 'blob:data';
  };
  onTestFinished(() => {
    URL.createObjectURL = createObjectURL;
  });
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    files.push({ name: this.download, blob: created.at(-1) as Blob });
  });
  return files;
}

describe('Your data page', () => {
  it('asks a signed-out visitor to sign in', async () => {
    fakeApi(() => undefined);
    renderAt('/account', routes);
    await screen.findByRole('button', { name: 'Sign in with Discord' });
    expect(screen.queryByRole('button', { name: 'Download my data' })).toBeNull();
  });

  it('downloads the JSON file named with the date, saying it is preparing meanwhile', async () => {
    signInAda();
    let answer: (response: Response) => void = () => undefined;
    vi.stubGlobal(
      'fetch',
      vi.fn(() => new Promise<Response>((resolve) => (answer = resolve))),
    );
    const files = captureDownloads();
    renderAt('/account', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    const waiting = await screen.findByRole('button', { name: 'Preparing your file…' });
    expect((waiting as HTMLButtonElement).disabled).toBe(true);
    answer(
      new Response(JSON.stringify(EXPORT), { status: 200, headers: { 'content-type': 'application/json' } }),
    );
    await waitFor(() => expect(files.map((f) => f.name)).toEqual(['spacecadet-my-data-2026-11-28.json']));
    const blob = files[0]?.blob;
    if (!(blob instanceof Blob)) throw new Error('no file was downloaded');
    expect(JSON.parse(await blob.text())).toEqual(EXPORT);
    await screen.findByRole('button', { name: 'Download my data' });
  });

  it('shows the error banner when the download fails', async () => {
    signInAda();
    fakeApi(({ path }) =>
      path === '/api/me/data'
        ? { status: 503, body: { error: 'unavailable', message: 'Try again' } }
        : undefined,
    );
    renderAt('/account', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Download my data' }));
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(TEXT.downloadFailed);
  });

  it('confirms what goes before deleting, then says what was deleted, signed out', async () => {
    signInAda();
    const api = fakeApi(({ method, path }) =>
      method === 'DELETE' && path === '/api/me/data' ? { status: 200, body: ERASED } : undefined,
    );
    renderAt('/account', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my data' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete your data?' });
    expect(dialog.textContent).toContain(TEXT.confirm);
    expect(dialog.textContent).toContain('signed out everywhere');
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete my data' }));
    const done = (await screen.findByRole('heading', { name: 'Your data was deleted' }))
      .parentElement as HTMLElement;
    expect(done.getAttribute('role')).toBe('status');
    expect(done.textContent).toContain('Your data was deleted');
    expect(done.textContent).toContain('2 server XP records');
    expect(done.textContent).toContain('3 History entries kept without your name');
    expect(done.textContent).toContain('You are signed out.');
    expect(getStoredUser()).toBeNull();
    expect(screen.queryByRole('alertdialog')).toBeNull();
  });

  it('keeps the user signed in and shows the error banner when the delete fails; Cancel deletes nothing', async () => {
    signInAda();
    const api = fakeApi(({ method, path }) =>
      method === 'DELETE' && path === '/api/me/data'
        ? { status: 503, body: { error: 'unavailable', message: 'Postgres did not answer' } }
        : undefined,
    );
    renderAt('/account', routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Delete my data' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'DELETE')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Delete my data' }));
    fireEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Delete my data' }),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain(TEXT.deleteFailed);
    expect(getStoredUser()?.id).toBe(ADA.id);
  });
});
