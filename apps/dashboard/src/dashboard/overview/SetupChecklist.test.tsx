import type { SetupChecklist as Checklist } from '@spacecadet/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { describe, expect, it } from 'vitest';
import { fakeApi, STATION, signInAda } from '../../../test/fake-api.ts';
import { SetupChecklist } from './SetupChecklist.tsx';

const setupPath = `/api/guilds/${STATION.id}/setup`;
const dismissalPath = `${setupPath}/dismissal`;

const CHECKLIST: Checklist = {
  done: false,
  dismissed_at: null,
  lines: [
    {
      id: 'role_order',
      status: 'todo',
      title: 'The bot’s role is above the roles it gives',
      text: 'Drag “Space Cadet” above “Moderators”, then save.',
      fix: { label: 'Open Server Settings → Roles', href: 'https://discord.com/channels/300000000000000001' },
      items: ['“Moderators” is not below “Space Cadet”'],
      role_order: [
        {
          id: '300000000000000024',
          name: 'Moderators',
          color: 0xe74c3c,
          is_bot: false,
          managed_by_bot: true,
          blocked: true,
        },
        {
          id: '300000000000000023',
          name: 'Space Cadet',
          color: 0,
          is_bot: true,
          managed_by_bot: false,
          blocked: false,
        },
      ],
    },
    {
      id: 'features_on',
      status: 'todo',
      title: 'Features are turned on',
      text: 'No feature is set up yet.',
      fix: { label: 'Set up color roles', href: '/dashboard/color-roles' },
      items: [],
    },
  ],
};

type Answer = { status: number; body: unknown };

function show(
  load: Answer,
  dismiss: Answer = { status: 200, body: { ...CHECKLIST, dismissed_at: '2026-11-28T10:00:00.000Z' } },
) {
  signInAda();
  const api = fakeApi(({ method, path }) => {
    if (method === 'GET' && path === setupPath) return load;
    if (method === 'PUT' && path === dismissalPath) return dismiss;
    if (method === 'DELETE' && path === dismissalPath) return { status: 200, body: CHECKLIST };
    return undefined;
  });
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <SetupChecklist guildId={STATION.id} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
  return api;
}

describe("the overview's setup checklist", () => {
  it('says it is checking, then draws each line with its fix and the role order', async () => {
    show({ status: 200, body: CHECKLIST });
    expect(screen.getByText(/Checking this server.s setup/)).toBeTruthy();
    const roleLine = (await screen.findByText(/The bot’s role is above/)).closest('li') as HTMLElement;
    expect(screen.getByText(/0 of 2 done/)).toBeTruthy();
    expect(roleLine.querySelector('.role-blocked')?.textContent).toMatch(
      /Moderators.*must be below the bot/i,
    );
    expect(roleLine.querySelector('.role-bot')?.textContent).toMatch(/Space Cadet/);
    const discord = within(roleLine).getByRole('link', { name: /Open Server Settings/ });
    expect(discord.getAttribute('target')).toBe('_blank');
    expect(screen.getByRole('link', { name: /Set up color roles/ }).getAttribute('href')).toBe(
      `/dashboard/color-roles?guild=${STATION.id}`,
    );
  });

  it('shows the error when the checklist cannot be loaded', async () => {
    show({ status: 403, body: { error: 'forbidden', message: 'You cannot manage this server.' } });
    expect((await screen.findByRole('alert')).textContent).toMatch(
      /The setup checklist could not be loaded: .*cannot manage this server/,
    );
  });

  it('keeps the card and says why when the dismissal fails', async () => {
    show(
      { status: 200, body: CHECKLIST },
      { status: 403, body: { error: 'forbidden', message: 'Not allowed.' } },
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    expect((await screen.findByRole('alert')).textContent).toMatch(/Not allowed/);
    expect(screen.getByText(/Features are turned on/)).toBeTruthy();
  });

  it('hides behind a Show button once dismissed, which brings it back', async () => {
    const api = show({ status: 200, body: CHECKLIST });
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss' }));
    const showButton = await screen.findByRole('button', { name: 'Show the setup checklist' });
    expect(screen.queryByText(/Features are turned on/)).toBeNull();
    fireEvent.click(showButton);
    await screen.findByText(/Features are turned on/);
    await waitFor(() =>
      expect(api.calls.filter((c) => c.path === dismissalPath).map((c) => c.method)).toEqual([
        'PUT',
        'DELETE',
      ]),
    );
  });
});
