import { QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { useState } from 'react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, LEVELING_SETTINGS, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import DashboardApp from '../DashboardApp.tsx';
import { boostExpiryLabel, boostTargetLabel } from '../leveling/LevelingBoosts.tsx';
import { MEMBER_SEARCH_DEBOUNCE_MS, MemberPicker, RolePicker } from './GuildPickers.tsx';
import { createQueryClient } from './queries.ts';

const base = `/api/guilds/${STATION.id}`;
const ROLES = [
  { id: '300000000000000024', name: 'Moderators', color: 0xe74c3c, position: 4, managed: false },
  { id: '300000000000000023', name: 'Space Cadet', color: 0, position: 3, managed: true },
  { id: '300000000000000022', name: 'Managers', color: 0xe67e22, position: 2, managed: false },
  { id: '300000000000000021', name: 'Crew', color: 0x2ecc71, position: 1, managed: false },
];
const NIA = { id: '200000000000000003', username: 'nia', display_name: 'Nia', avatar: '0c3f' };
const MO = { id: '200000000000000002', username: 'mo', display_name: 'Captain Mo', avatar: null };

type Answer = { status: number; body?: unknown };
function pickerApi(overrides: Record<string, Answer> = {}) {
  return fakeApi(({ method, path }) => {
    const key = `${method} ${path}`;
    if (overrides[key]) return overrides[key];
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: ROLES } };
    if (path.startsWith(`${base}/members/search?`)) {
      const query = new URL(path, 'http://x').searchParams.get('query')?.toLowerCase() ?? '';
      const members = [NIA, MO].filter(
        (m) =>
          m.id === query || m.username.startsWith(query) || m.display_name.toLowerCase().startsWith(query),
      );
      return { status: 200, body: { members } };
    }
    return undefined;
  });
}

function Harness({
  kind,
  assignable = false,
  initial = '',
}: {
  kind: 'role' | 'member';
  assignable?: boolean;
  initial?: string;
}) {
  const [value, setValue] = useState(initial);
  return (
    <>
      {kind === 'role' ? (
        <RolePicker
          id="pick"
          label="Role"
          guildId={STATION.id}
          value={value}
          onChange={setValue}
          assignable={assignable}
        />
      ) : (
        <MemberPicker id="pick" label="Member" guildId={STATION.id} value={value} onChange={setValue} />
      )}
      <output data-testid="value">{value}</output>
    </>
  );
}

function renderPicker(props: Parameters<typeof Harness>[0]) {
  return render(
    <QueryClientProvider client={createQueryClient()}>
      <Harness {...props} />
    </QueryClientProvider>,
  );
}

const value = () => screen.getByTestId('value').textContent;
const optionNames = () =>
  screen.queryAllByRole('option').map((option) => option.querySelector('.picker-option-name')?.textContent);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('RolePicker', () => {
  it('lists the roles with color dots, filters as you type, and picks with the keyboard', async () => {
    signInAda();
    pickerApi();
    renderPicker({ kind: 'role' });
    const input = screen.getByRole('combobox', { name: 'Role' });
    fireEvent.focus(input);
    await waitFor(() => expect(optionNames()).toEqual(['Moderators', 'Space Cadet', 'Managers', 'Crew']));
    const dot = screen.getAllByRole('option')[0]?.querySelector('.role-dot') as HTMLElement;
    expect(['#e74c3c', 'rgb(231, 76, 60)']).toContain(dot.style.backgroundColor);
    fireEvent.change(input, { target: { value: 'ma' } });
    expect(optionNames()).toEqual(['Managers']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(value()).toBe('300000000000000022');
    expect((input as HTMLInputElement).value).toBe('Managers');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('picks with the mouse, leaves out managed roles when asked, and shows a stored role by name', async () => {
    signInAda();
    pickerApi();
    renderPicker({ kind: 'role', assignable: true, initial: '300000000000000021' });
    const input = (await screen.findByDisplayValue('Crew')) as HTMLInputElement;
    fireEvent.focus(input);
    expect(optionNames()).toEqual(['Moderators', 'Managers', 'Crew']);
    fireEvent.click(within(screen.getByRole('listbox')).getByText('Moderators'));
    expect(value()).toBe('300000000000000024');
  });

  it('takes a typed role id as it is, even one it does not list', async () => {
    signInAda();
    pickerApi();
    renderPicker({ kind: 'role' });
    const input = screen.getByRole('combobox', { name: 'Role' });
    fireEvent.focus(input);
    await waitFor(() => expect(optionNames()).toHaveLength(4));
    fireEvent.change(input, { target: { value: '300000000000000099' } });
    expect(value()).toBe('300000000000000099');
    screen.getByText('Not a role of this server (the id is kept as typed)');
    fireEvent.blur(input);
    expect((input as HTMLInputElement).value).toBe('300000000000000099');
  });

  it('says the roles could not be listed, and a typed id still works', async () => {
    signInAda();
    pickerApi({ [`GET ${base}/roles`]: { status: 409, body: { error: 'bot_not_in_guild', message: 'x' } } });
    renderPicker({ kind: 'role', initial: '300000000000000021' });
    const input = screen.getByRole('combobox', { name: 'Role' }) as HTMLInputElement;
    expect(input.value).toBe('300000000000000021');
    fireEvent.focus(input);
    await screen.findByText('Could not list the roles: type a role id');
  });
});

describe('MemberPicker', () => {
  it('searches as you type (debounced) and shows avatars and names', async () => {
    signInAda();
    const api = pickerApi();
    renderPicker({ kind: 'member' });
    const input = screen.getByRole('combobox', { name: 'Member' });
    fireEvent.focus(input);
    screen.getByText('Type a name or paste a member id');
    fireEvent.change(input, { target: { value: 'n' } });
    fireEvent.change(input, { target: { value: 'ni' } });
    // Nothing asked before the typing settles, then one search for the last text.
    expect(api.calls.filter((c) => c.path.includes('/members/search'))).toHaveLength(0);
    await new Promise((resolve) => setTimeout(resolve, MEMBER_SEARCH_DEBOUNCE_MS / 2));
    expect(api.calls.filter((c) => c.path.includes('/members/search'))).toHaveLength(0);
    await waitFor(() => expect(optionNames()).toEqual(['Nia']));
    expect(api.calls.filter((c) => c.path.includes('/members/search')).map((c) => c.path)).toEqual([
      `${base}/members/search?query=ni`,
    ]);
    const option = screen.getByRole('option');
    expect(option.querySelector('img')?.getAttribute('src')).toBe(
      `https://cdn.discordapp.com/avatars/${NIA.id}/0c3f.png?size=64`,
    );
    fireEvent.click(option);
    expect(value()).toBe(NIA.id);
    expect((input as HTMLInputElement).value).toBe('Nia');
  });

  it('shows a stored member by name, with the username beside a nickname in the list', async () => {
    signInAda();
    pickerApi();
    renderPicker({ kind: 'member', initial: MO.id });
    const input = (await screen.findByDisplayValue('Captain Mo')) as HTMLInputElement;
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: 'cap' } });
    await waitFor(() => expect(optionNames()).toEqual(['Captain Mo']));
    screen.getByText('@mo');
  });

  it('takes a typed member id, and says when no member matches', async () => {
    signInAda();
    pickerApi();
    renderPicker({ kind: 'member' });
    const input = screen.getByRole('combobox', { name: 'Member' });
    fireEvent.focus(input);
    fireEvent.change(input, { target: { value: '200000000000000009' } });
    expect(value()).toBe('200000000000000009');
    await screen.findByText('Not a member of this server');
    fireEvent.change(input, { target: { value: 'zed' } });
    expect(value()).toBe('');
    await screen.findByText('No member matches');
  });
});

describe('boosts page', () => {
  const SETTINGS = { ...LEVELING_SETTINGS, enabled: true };
  const past = '2020-01-02T03:04:00.000Z';
  const future = '2999-01-02T03:04:00.000Z';
  const BOOSTS = [
    { id: 1, multiplier: 2, user_id: null, expires_at: null },
    { id: 2, multiplier: 3, user_id: NIA.id, expires_at: future },
    { id: 3, multiplier: 1.5, user_id: '-role:300000000000000021', expires_at: past },
    { id: 4, multiplier: 2, user_id: '200000000000000077', expires_at: null },
  ];
  const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;

  function boostsApi() {
    let polls = 0;
    return fakeApi(({ method, path }) => {
      const key = `${method} ${path}`;
      if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
      if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
      if (key === `GET ${base}/leveling`)
        return {
          status: 200,
          body: { leveling: SETTINGS, roles: [], boosts: BOOSTS, rank_card_background: false },
        };
      if (key === `PUT ${base}/leveling`) return { status: 200, body: SETTINGS };
      if (key === `POST ${base}/leveling/boosts`)
        return { status: 201, body: { id: 9, multiplier: 4, user_id: MO.id, expires_at: null } };
      if (key === `POST ${base}/leveling/prune-leavers`)
        return { status: 202, body: { job_id: `leveling.prune-leavers.${STATION.id}` } };
      if (path.startsWith('/api/jobs/')) {
        polls += 1;
        const done = polls >= 2;
        return {
          status: 200,
          body: {
            id: `leveling.prune-leavers.${STATION.id}`,
            name: 'leveling.prune-leavers',
            guild_id: STATION.id,
            state: done ? 'completed' : 'active',
            progress: done ? 100 : 30,
            result: done ? { ok: true, summary: 'Pruned 2 members who left' } : undefined,
            error: null,
          },
        };
      }
      if (key === `GET ${base}/roles`) return { status: 200, body: { roles: ROLES } };
      if (path.startsWith(`${base}/members/search?`)) {
        const query = new URL(path, 'http://x').searchParams.get('query');
        return { status: 200, body: { members: [NIA, MO].filter((m) => m.id === query) } };
      }
      return undefined;
    });
  }

  it('names targets (member, role with its color, or the id when unknown) and marks expired boosts', async () => {
    signInAda();
    boostsApi();
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    const list = (await screen.findByRole('heading', { name: 'Boosts' })).closest('section') as HTMLElement;
    const items = () => within(list).getAllByRole('listitem');
    await waitFor(() => within(items()[1] as HTMLElement).getByText('Nia'));
    within(items()[0] as HTMLElement).getByText('Server-wide');
    await waitFor(() => within(items()[2] as HTMLElement).getByText('Crew'));
    expect(items()[2]?.querySelector('.role-dot')).not.toBeNull();
    within(items()[3] as HTMLElement).getByText('User 200000000000000077');
    // The role boost expired: said so, and the row looks it.
    expect(items()[2]?.className).toContain('boost-expired');
    within(items()[2] as HTMLElement).getByText(`Expired ${new Date(past).toLocaleString()}`);
    expect(items()[1]?.className).not.toContain('boost-expired');
    within(items()[1] as HTMLElement).getByText(`Expires ${new Date(future).toLocaleString()}`);
    within(list).getByRole('button', { name: 'Remove Nia boost' });
  });

  it('adds a member boost picked by name, then clears the form', async () => {
    signInAda();
    const api = boostsApi();
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    fireEvent.change(await screen.findByLabelText('Applies to'), { target: { value: 'user' } });
    const member = screen.getByRole('combobox', { name: 'Member (empty: all users)' });
    fireEvent.focus(member);
    fireEvent.change(member, { target: { value: MO.id } });
    fireEvent.change(screen.getByLabelText('Multiplier'), { target: { value: '4' } });
    fireEvent.click(screen.getByRole('button', { name: 'Add boost' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.path === `${base}/leveling/boosts`)?.body).toEqual({
        multiplier: 4,
        user_id: MO.id,
        expires_at: null,
      }),
    );
    await waitFor(() => expect((screen.getByLabelText('Multiplier') as HTMLInputElement).value).toBe('2'));
    expect(
      (screen.getByRole('combobox', { name: 'Member (empty: all users)' }) as HTMLInputElement).value,
    ).toBe('');
  });

  it('shows the Prune leavers job progress and result', async () => {
    signInAda();
    boostsApi();
    renderAt(`/dashboard/leveling/boosts?guild=${STATION.id}`, routes);
    fireEvent.click(await screen.findByRole('button', { name: 'Prune leavers' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Prune leavers?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Prune leavers' }));
    await screen.findByText('Pruned 2 members who left');
    screen.getByText('Pruning leavers: done');
  });

  it('keeps the plain labels for ids it cannot name', () => {
    expect(boostTargetLabel({ user_id: '-role:1' }, { role: { name: 'Crew' } })).toBe('Role Crew');
    expect(boostTargetLabel({ user_id: '22222' }, { member: { display_name: 'Nia' } })).toBe('Nia');
    expect(boostExpiryLabel({ expires_at: past })).toBe(`Expired ${new Date(past).toLocaleString()}`);
  });
});
