import { PERSONALITY_QUESTION_TYPES, type PersonalityQuestion } from '@spacecadet/contract';
import { BOT_PERMISSION_BITS, DEFAULT_BOT_PERMISSIONS, PERSONALITY_CATALOG } from '@spacecadet/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { installUrl } from '../../lib/oauth.ts';
import DashboardApp from '../DashboardApp.tsx';
import {
  CHOOSE_CATEGORY,
  deleteRolesConfirmText,
  ONBOARDING_SWITCH_LABEL,
  resetConfirmText,
} from './personality-model.ts';

/**
 * The Initialize card's categories, deleting a disabled category's roles
 * after a confirmation with their count, reset's counted confirmation, and the Onboarding
 * switch saying which permission the bot lacks, with a re-invite that asks for it.
 */
const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const ZODIAC: PersonalityQuestion = {
  question_id: 2,
  options: [],
  question_type: 'zodiac',
  role_count: 12,
  is_multi_select: false,
  is_enabled: true,
  created_roles: 12,
  message_posted: true,
  in_onboarding: false,
};
const PRONOUNS: PersonalityQuestion = {
  question_id: 5,
  options: [],
  question_type: 'pronouns',
  role_count: 5,
  is_multi_select: true,
  is_enabled: true,
  created_roles: 5,
  message_posted: true,
  in_onboarding: true,
};

/** What the reset preview says uses the personality roles besides the questions. */
const PERSONALITY_USED_BY =
  'Also used by the Personality Roles reaction list and 1 no-XP role. They stop giving these roles until the reset is undone.';

function choicesApi(options: { configured: boolean; permissions?: string }) {
  let configured = options.configured;
  let zodiac = ZODIAC;
  return fakeApi(({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/channels`)
      return { status: 200, body: { channels: [{ id: '300000000000000012', name: 'roles' }] } };
    if (key === `GET ${base}/personality-roles/reset/preview`)
      return {
        status: 200,
        body: {
          summary: 'Delete 17 roles held by 9 members.',
          roles: 17,
          members: 9,
          used_by: {
            summary: PERSONALITY_USED_BY,
            menus: [{ id: 'menu-1', name: 'Personality Roles' }],
            reward_roles: 0,
            no_xp_roles: 1,
            boosts: 0,
          },
        },
      };
    if (key === `GET ${base}/bot-permissions` && options.permissions)
      return { status: 200, body: { permissions: options.permissions } };
    const state = () => ({
      configured,
      assign_channel_id: '300000000000000012',
      questions: configured ? [zodiac, PRONOUNS] : [],
      last_refresh: null,
      onboarding: false,
    });
    if (key === `GET ${base}/personality-roles`) return { status: 200, body: state() };
    if (key === `POST ${base}/personality-roles/init`) {
      configured = true;
      return { status: 200, body: state() };
    }
    if (key === `POST ${base}/tasks/personality-roles/refresh`) return { status: 204 };
    if (method === 'GET' && path.startsWith(`${base}/personality-roles/insights`))
      return { status: 200, body: { days: 30, questions: [] } };
    if (key === `PUT ${base}/personality-roles/questions/zodiac/toggle`) {
      zodiac = { ...zodiac, is_enabled: (body as { enabled: boolean }).enabled };
      return { status: 200, body: zodiac };
    }
    if (key === `POST ${base}/personality-roles/questions/zodiac/delete-roles`) {
      zodiac = { ...zodiac, created_roles: 0 };
      return { status: 202, body: { job_id: `personality-roles.delete-roles.${STATION.id}` } };
    }
    if (key === `GET /api/jobs/personality-roles.delete-roles.${STATION.id}`)
      return {
        status: 200,
        body: {
          id: `personality-roles.delete-roles.${STATION.id}`,
          name: 'personality-roles.delete-roles',
          guild_id: STATION.id,
          state: 'completed',
          progress: 100,
          error: null,
          recovering: false,
          result: { ok: true, summary: '12 roles deleted.' },
        },
      };
    return undefined;
  });
}

const open = () => renderAt(`/dashboard/personality-roles?guild=${STATION.id}`, routes);

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('Initialize card categories', () => {
  it('offers every category on, and initializes with the ones left on', async () => {
    signInAda();
    const api = choicesApi({ configured: false });
    open();
    const region = await screen.findByRole(
      'region',
      { name: 'Initialize Personality Roles' },
      { timeout: 5000 },
    );
    const boxes = within(region).getAllByRole('checkbox');
    expect(boxes).toHaveLength(PERSONALITY_CATALOG.length);
    expect(boxes.every((box) => (box as HTMLInputElement).checked)).toBe(true);
    const total = PERSONALITY_CATALOG.reduce((n, q) => n + q.options.length, 0);
    within(region).getByText(`10 of 10 categories · ${total} roles will be created`);

    // All off: nothing can be initialized.
    for (const box of boxes) fireEvent.click(box);
    within(region).getByText(CHOOSE_CATEGORY);
    const initialize = within(region).getByRole('button', { name: 'Initialize Personality Roles' });
    expect(initialize).toHaveProperty('disabled', true);

    fireEvent.click(within(region).getByRole('checkbox', { name: /^Pronouns/ }));
    fireEvent.click(within(region).getByRole('checkbox', { name: /^Zodiac/ }));
    within(region).getByText('2 of 10 categories · 17 roles will be created');
    const select = await screen.findByLabelText('Channel');
    await waitFor(() => expect(select).toHaveProperty('disabled', false));
    fireEvent.change(select, { target: { value: '300000000000000012' } });
    fireEvent.click(initialize);
    await screen.findByText('Question Categories');
    // Catalog order, whatever order they were ticked in.
    expect(api.calls.find((c) => c.path.endsWith('/init'))?.body).toEqual({
      channel_id: '300000000000000012',
      categories: ['zodiac', 'pronouns'],
    });
    expect(PERSONALITY_QUESTION_TYPES.indexOf('zodiac')).toBeLessThan(
      PERSONALITY_QUESTION_TYPES.indexOf('pronouns'),
    );
  });
});

describe("a disabled category's roles", () => {
  it('are deleted after a confirmation that names their count', async () => {
    signInAda();
    const api = choicesApi({ configured: true });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Zodiac Sign: Enabled' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Delete the roles of Zodiac Sign?' });
    within(dialog).getByText(deleteRolesConfirmText('Zodiac Sign', 12));
    expect(deleteRolesConfirmText('Zodiac Sign', 12)).toBe(
      'Zodiac Sign is disabled and its message will be removed. Delete the 12 roles of Zodiac Sign in Discord too? Members lose them; Cancel keeps them.',
    );
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete its 12 roles' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.endsWith('/questions/zodiac/delete-roles'))).toBe(true),
    );
    await screen.findByText('12 roles deleted.');
  });

  it('are kept when the admin cancels, and can still be deleted from the category', async () => {
    signInAda();
    const api = choicesApi({ configured: true });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Zodiac Sign: Enabled' }, { timeout: 5000 }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete the roles of Zodiac Sign?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    const later = await screen.findByRole('button', { name: 'Delete its 12 roles in Discord' });
    expect(api.calls.some((c) => c.path.endsWith('/delete-roles'))).toBe(false);
    fireEvent.click(later);
    dialog = await screen.findByRole('alertdialog', { name: 'Delete the roles of Zodiac Sign?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete its 12 roles' }));
    await waitFor(() =>
      expect(api.calls.some((c) => c.path.endsWith('/questions/zodiac/delete-roles'))).toBe(true),
    );
  });
});

describe("reset's confirmation", () => {
  it('names what it deletes, with counts, and the menus and settings that use those roles', async () => {
    expect(resetConfirmText([ZODIAC, PRONOUNS])).toBe(
      'Reset personality roles for this server? This deletes 17 roles and 2 messages in Discord, removes 1 question from Discord Onboarding, and removes the 2 question categories with their options. Continue?',
    );
    expect(resetConfirmText([{ ...ZODIAC, created_roles: 0, message_posted: false }])).toBe(
      'Reset personality roles for this server? This deletes nothing in Discord (no role or message was made yet) and removes the 1 question category with their options. Continue?',
    );
    signInAda();
    const api = choicesApi({ configured: true });
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset' }, { timeout: 5000 }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Reset personality roles?' });
    within(dialog).getByText(resetConfirmText([ZODIAC, PRONOUNS]));
    await within(dialog).findByText('Delete 17 roles held by 9 members.');
    within(dialog).getByText(PERSONALITY_USED_BY);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(api.calls.some((c) => c.method === 'POST' && c.path.endsWith('/reset'))).toBe(false);
  });
});

describe('the Onboarding switch and the permission it needs', () => {
  it('says Manage Server is missing next to the switch, with a re-invite asking for it', async () => {
    signInAda();
    choicesApi({ configured: true, permissions: DEFAULT_BOT_PERMISSIONS });
    open();
    const region = await screen.findByRole('region', { name: 'Discord Onboarding' }, { timeout: 5000 });
    const note = await within(region).findByText(
      /needs the Manage Server permission, which I don't have here/,
    );
    const link = within(note).getByRole('link', { name: 'Re-invite the bot with Manage Server' });
    expect(link.getAttribute('href')).toBe(installUrl(STATION.id, ['onboarding']));
    expect(link.getAttribute('href')).toMatch(/\/install\?guildId=300000000000000001&features=onboarding$/);
    const toggle = within(region).getByRole('switch', { name: ONBOARDING_SWITCH_LABEL });
    expect(toggle).toHaveProperty('disabled', true);
    expect(toggle.getAttribute('aria-describedby')).toBe(note.id);
    // Nothing about it at the top of the page.
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('says nothing once the bot has it', async () => {
    signInAda();
    const granted = (BigInt(DEFAULT_BOT_PERMISSIONS) | BOT_PERMISSION_BITS.MANAGE_GUILD).toString();
    const api = choicesApi({ configured: true, permissions: granted });
    open();
    const region = await screen.findByRole('region', { name: 'Discord Onboarding' }, { timeout: 5000 });
    await waitFor(() => expect(api.calls.some((c) => c.path.endsWith('/bot-permissions'))).toBe(true));
    const toggle = within(region).getByRole('switch', { name: ONBOARDING_SWITCH_LABEL });
    await waitFor(() => expect(toggle).toHaveProperty('disabled', false));
    expect(within(region).queryByText(/which I don't have here/)).toBeNull();
  });
});
