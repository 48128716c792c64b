import {
  MAX_REACTION_LIST_ROWS,
  MESSAGES,
  type ReactionRoleEntry,
  type ReactionRolesState,
} from '@spacecadet/contract';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { getConfig } from '../../config.ts';
import { clearSession } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';
import { MANAGED_ROLE_NOTE } from './RoleRowsEditor.tsx';
import { NOTHING_TO_POST, PANELS_WILL_UPDATE, ROW_LIMIT_NOTE } from './reaction-roles-form.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const RED = '300000000000000021';
const GAMER = '300000000000000022';
const BOT_ROLE = '300000000000000023';
const ROLES_CHANNEL = '300000000000000012';
const LOBBY = '300000000000000013';
const JOB_ID = `reaction-roles.post-panel.${STATION.id}`;
const ROLES = [
  { id: RED, name: 'Red', color: 0xe53935, position: 3, managed: false },
  { id: GAMER, name: 'Gamer', color: 0, position: 2, managed: false },
  { id: BOT_ROLE, name: 'Space Cadet', color: 0, position: 5, managed: true },
];
const WARNING = 'I can\'t give members the role "Red": my role must be above it in Server Settings → Roles.';

function state(overrides: Partial<ReactionRolesState> = {}): ReactionRolesState {
  return {
    color_roles: [{ emoji: '🔴', role_id: RED }],
    personality_roles: [],
    channels: { color_roles: null, personality_roles: null },
    panels: { color_roles: null, personality_roles: null },
    updated_at: null,
    updated_by: null,
    ...overrides,
  };
}

interface Options {
  initial?: ReactionRolesState;
  /** GET answers this status instead (with an error body). */
  getStatus?: number;
  /** PUT answers this instead of saving. */
  putError?: { status: number; body: unknown };
  botAbsent?: boolean;
}

/** The reaction-roles API over one stored state, with channels, roles and the post job. */
function reactionApi(options: Options = {}) {
  let stored = options.initial ?? state();
  let jobPolls = 0;
  const api = fakeApi(({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/'))
      return { status: 200, body: { inGuild: !options.botAbsent && path.endsWith(STATION.id) } };
    if (key === `GET ${base}/reaction-roles`) {
      if (options.getStatus)
        return {
          status: options.getStatus,
          body: { error: 'forbidden', message: 'You do not manage this server' },
        };
      return { status: 200, body: stored };
    }
    if (key === `PUT ${base}/reaction-roles`) {
      if (options.putError) return options.putError;
      const lists = body as { color_roles: ReactionRoleEntry[]; personality_roles: ReactionRoleEntry[] };
      stored = { ...stored, ...lists, updated_at: '2026-11-25T00:00:01Z', updated_by: '200000000000000001' };
      return { status: 200, body: { updated_at: stored.updated_at, updated_by: stored.updated_by } };
    }
    if (key === `PUT ${base}/reaction-roles/channel`) {
      const { list, channel_id } = body as { list: 'color_roles' | 'personality_roles'; channel_id: string };
      stored = { ...stored, channels: { ...stored.channels, [list]: channel_id } };
      return { status: 200, body: { list, channel_id } };
    }
    if (key === `POST ${base}/reaction-roles/post-panel`) return { status: 202, body: { job_id: JOB_ID } };
    if (key === `GET /api/jobs/${JOB_ID}`) {
      jobPolls += 1;
      const done = jobPolls >= 2;
      if (done) {
        stored = {
          ...stored,
          panels: {
            ...stored.panels,
            color_roles: { channel_id: ROLES_CHANNEL, message_ids: ['300000000000000501'] },
          },
        };
      }
      return {
        status: 200,
        body: {
          id: JOB_ID,
          name: 'reaction-roles.post-panel',
          guild_id: STATION.id,
          state: done ? 'completed' : 'active',
          progress: done ? 100 : 40,
          result: done
            ? { ok: true, summary: 'Posted the Color Roles panel', warnings: [WARNING] }
            : undefined,
          error: null,
        },
      };
    }
    if (key === `GET ${base}/channels`)
      return {
        status: 200,
        body: {
          channels: [
            { id: ROLES_CHANNEL, name: 'roles' },
            { id: LOBBY, name: 'lobby' },
          ],
        },
      };
    if (key === `GET ${base}/roles`) return { status: 200, body: { roles: ROLES } };
    return undefined;
  });
  return { ...api, stored: () => stored };
}

const open = () => renderAt(`/dashboard/reaction-roles?guild=${STATION.id}`, routes);
const card = (title: string) => screen.getByRole('region', { name: title });
/** The page has loaded its lists (the lazy chunk, then the state). */
const ready = () => screen.findByRole('region', { name: 'Color Roles' }, { timeout: 10_000 });

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('reaction roles page states', () => {
  it('asks to sign in when signed out', async () => {
    clearSession('signed_out');
    open();
    await screen.findByText(MESSAGES.signInRequired);
  });

  it('shows a failed load in the red box, without the editor', async () => {
    signInAda();
    reactionApi({ getStatus: 403 });
    open();
    await screen.findByText('You do not manage this server', {}, { timeout: 10_000 });
    expect(screen.queryByRole('region', { name: 'Color Roles' })).toBeNull();
  });

  it('shows Loading reaction roles… until the lists arrive', async () => {
    signInAda();
    reactionApi();
    open();
    await screen.findByText('Loading reaction roles…', {}, { timeout: 10_000 });
    await ready();
  });
});

describe('reaction roles panels', () => {
  it('saves a list channel and says where each panel is', async () => {
    signInAda();
    const api = reactionApi({
      initial: state({
        channels: { color_roles: null, personality_roles: LOBBY },
        panels: {
          color_roles: null,
          personality_roles: { channel_id: LOBBY, message_ids: ['300000000000000501', '300000000000000502'] },
        },
      }),
    });
    open();
    await ready();
    await within(card('Personality Roles')).findByText('Posted in #lobby (2 messages)');
    within(card('Color Roles')).getByText('Not posted yet');

    const color = card('Color Roles');
    const select = await within(color).findByLabelText('Channel');
    await waitFor(() => expect(within(select).getAllByRole('option')).toHaveLength(3));
    fireEvent.change(select, { target: { value: ROLES_CHANNEL } });
    fireEvent.click(within(color).getByRole('button', { name: 'Save the Color Roles channel' }));
    await within(color).findByText('Channel saved');
    expect(api.calls.find((call) => call.path === `${base}/reaction-roles/channel`)?.body).toEqual({
      list: 'color_roles',
      channel_id: ROLES_CHANNEL,
    });
    expect(api.stored().channels.color_roles).toBe(ROLES_CHANNEL);
  });

  it('disables Post / Update Panels with the reason until a saved list has rows and a channel', async () => {
    signInAda();
    reactionApi();
    open();
    await ready();
    const post = screen.getByRole('button', { name: 'Post / Update Panels' });
    expect(post).toHaveProperty('disabled', true);
    expect(document.getElementById(post.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      NOTHING_TO_POST,
    );
  });

  it('queues the post job, shows its progress, summary and warnings, then where the panel is', async () => {
    signInAda();
    const api = reactionApi({
      initial: state({ channels: { color_roles: ROLES_CHANNEL, personality_roles: null } }),
    });
    open();
    await ready();
    within(card('Color Roles')).getByText('Not posted yet');
    const post = screen.getByRole('button', { name: 'Post / Update Panels' });
    expect(post).toHaveProperty('disabled', false);
    fireEvent.click(post);
    await screen.findByText(/Posting the reaction panels/);
    await screen.findByText('Posted the Color Roles panel', {}, { timeout: 5_000 });
    screen.getByText(WARNING);
    expect(api.calls.filter((call) => call.method === 'POST').map((call) => call.path)).toEqual([
      `${base}/reaction-roles/post-panel`,
    ]);
    // The page reloads after the job: the panel's place shows.
    await within(card('Color Roles')).findByText('Posted in #roles (1 message)', {}, { timeout: 5_000 });
  });

  it('says the posted panels will update after a save', async () => {
    signInAda();
    const api = reactionApi({
      initial: state({
        channels: { color_roles: ROLES_CHANNEL, personality_roles: null },
        panels: {
          color_roles: { channel_id: ROLES_CHANNEL, message_ids: ['300000000000000501'] },
          personality_roles: null,
        },
      }),
    });
    open();
    await ready();
    fireEvent.change(screen.getByLabelText('Label (row 1)', { selector: '#color_roles-0-label' }), {
      target: { value: 'Red' },
    });
    screen.getByText(/Unsaved changes/);
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    screen.getByText(PANELS_WILL_UPDATE);
    expect(api.stored().color_roles).toEqual([{ emoji: '🔴', role_id: RED, label: 'Red' }]);
  });
});

describe('reaction roles preview', () => {
  it("draws each list's panel as the bot posts it, continuing past 20 rows in a second message", async () => {
    signInAda();
    const rows = Array.from({ length: 21 }, (_, i) => ({
      emoji: i === 20 ? '<:party:300000000000000777>' : String.fromCodePoint(0x1f600 + i),
      role_id: i === 0 ? RED : GAMER,
      ...(i === 1 ? { label: 'Cheerful', description: 'always smiling' } : {}),
    }));
    reactionApi({ initial: state({ color_roles: rows }) });
    open();
    await ready();
    const preview = within(card('Color Roles')).getByRole('region', { name: /Panel preview/ });
    const messages = await waitFor(() => {
      const found = within(preview).getAllByRole('listitem', { name: /Color Roles panel message/ });
      expect(within(found[0] as HTMLElement).getByText('@Red')).toBeTruthy();
      return found;
    });
    expect(messages).toHaveLength(2);
    const [first, second] = messages as [HTMLElement, HTMLElement];
    within(first).getByText('Color Roles (1/2)');
    within(second).getByText('Color Roles (2/2)');
    expect(
      within(within(first).getByRole('list', { name: 'Reactions' })).getAllByRole('listitem'),
    ).toHaveLength(20);
    expect(
      within(within(second).getByRole('list', { name: 'Reactions' })).getAllByRole('listitem'),
    ).toHaveLength(1);
    // A label replaces the role's name, in bold, with its description.
    expect(within(first).getByText('Cheerful').tagName).toBe('STRONG');
    within(first).getByText(/— always smiling/);
    // A custom emoji is its CDN image, in the line and on its reaction.
    const images = within(second).getAllByRole('img', { name: ':party:' });
    expect(images).toHaveLength(2);
    expect(images[0]?.getAttribute('src')).toBe(
      `${getConfig().cdnBase}/emojis/300000000000000777.png?size=48`,
    );

    // Removing the 21st row brings the panel back to one message.
    fireEvent.click(screen.getByRole('button', { name: 'Remove Color Roles row 21' }));
    await waitFor(() =>
      expect(within(preview).getAllByRole('listitem', { name: /Color Roles panel message/ })).toHaveLength(1),
    );
    within(preview).getByText('Color Roles');
  });
});

describe('reaction roles rows', () => {
  it('checks typed emojis as the admin types, in the words of the API', async () => {
    signInAda();
    const api = reactionApi();
    open();
    await ready();
    fireEvent.click(within(card('Color Roles')).getByRole('button', { name: 'Add row' }));
    const emoji = screen.getByLabelText('Emoji (row 2)', { selector: '#color_roles-1-emoji' });
    fireEvent.change(emoji, { target: { value: 'red' } });
    await screen.findByText('Row 2: emoji must be one emoji, or a custom emoji of this server as <:name:id>');
    expect(emoji.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(emoji, { target: { value: '🔴' } });
    await screen.findByText('Row 2: 🔴 is already used by row 1; each emoji can stand for one role');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    screen.getByText('Color Roles: Row 2: 🔴 is already used by row 1; each emoji can stand for one role');
    screen.getByText('Color Roles: Row 2: emoji and role_id required');
    expect(api.calls.some((call) => call.method === 'PUT')).toBe(false);
    fireEvent.change(emoji, { target: { value: '🟢' } });
    expect(screen.queryByText(/is already used by row 1/)).toBeNull();
  });

  it("shows the API's 400 in the red box when the server refuses", async () => {
    signInAda();
    const message = 'Color roles: Row 1: the role Red is above my highest role; move my role above it';
    reactionApi({
      putError: {
        status: 400,
        body: { error: 'invalid_input', message, issues: [{ path: 'color_roles.0.role_id', message }] },
      },
    });
    open();
    await ready();
    const role = screen.getByLabelText('Role (row 1)', { selector: '#color_roles-0-role_id' });
    expect(role.getAttribute('aria-invalid')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText(message);
    expect(screen.queryByText('Saved')).toBeNull();
    // The row the API names is marked too.
    expect(role.getAttribute('aria-invalid')).toBe('true');
  });

  it('marks a managed role and stops adding rows at the limit', async () => {
    signInAda();
    const rows = Array.from({ length: MAX_REACTION_LIST_ROWS }, (_, i) => ({
      emoji: String.fromCodePoint(0x1f600 + i),
      role_id: i === 0 ? BOT_ROLE : GAMER,
    }));
    reactionApi({ initial: state({ personality_roles: rows }) });
    open();
    await ready();
    const personality = card('Personality Roles');
    await within(personality).findByText(MANAGED_ROLE_NOTE);
    const add = within(personality).getByRole('button', { name: 'Add row' });
    expect(add).toHaveProperty('disabled', true);
    expect(document.getElementById(add.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      ROW_LIMIT_NOTE,
    );
    expect(within(card('Color Roles')).getByRole('button', { name: 'Add row' })).toHaveProperty(
      'disabled',
      false,
    );
  });
});
