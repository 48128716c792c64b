import { MAX_ROLE_MENUS, MESSAGES, type RoleMenu, type RoleMenuBody } from '@spacecadet/contract';
import { buildRoleMenuMessages, type DiscordButton, type DiscordStringSelect } from '@spacecadet/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { renderAt } from '../../../test/render.tsx';
import { clearSession } from '../../lib/session.ts';
import DashboardApp from '../DashboardApp.tsx';
import { UNDO_FROM_HISTORY } from '../shared/ConfirmDialog.tsx';
import { LEAVE_UNSAVED } from './MenuEditor.tsx';
import { deleteConfirmText, MENU_LIMIT_NOTE, optionLimitNote } from './role-menus-form.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
const base = `/api/guilds/${STATION.id}`;
const ROLES_CHANNEL = '300000000000000012';
const LOBBY = '300000000000000013';
const ROLE_IDS = Array.from({ length: 8 }, (_, i) => `3000000000000001${String(i).padStart(2, '0')}`);
const [RED, BLUE, GREEN] = ROLE_IDS as [string, string, string];
const ROLES = [
  { id: RED, name: 'Red', color: 0xe53935, position: 9, managed: false },
  { id: BLUE, name: 'Blue', color: 0x1e88e5, position: 8, managed: false },
  { id: GREEN, name: 'Green', color: 0, position: 7, managed: false },
  ...ROLE_IDS.slice(3).map((id, i) => ({
    id,
    name: `Team ${i + 4}`,
    color: 0,
    position: 6 - i,
    managed: false,
  })),
];
const MENU_ID = '7f1c2d3e-4a5b-4c6d-8e9f-0a1b2c3d4e5f';
const JOB_ID = `role-menus.post.${STATION.id}`;

function menu(overrides: Partial<RoleMenu> = {}): RoleMenu {
  return {
    id: MENU_ID,
    title: 'Pick a team',
    description: '',
    color: null,
    channel_id: ROLES_CHANNEL,
    style: 'buttons',
    mode: 'unique',
    max_roles: null,
    required_role_id: null,
    options: [
      { role_id: RED, label: 'Red team' },
      { role_id: BLUE, label: 'Blue team' },
    ],
    posted: null,
    created_at: '2026-11-25T00:00:00Z',
    updated_at: '2026-11-25T00:00:00Z',
    updated_by: null,
    ...overrides,
  };
}

interface Options {
  menus?: RoleMenu[];
  /** POST/PUT answer this instead of saving. */
  saveError?: { status: number; body: unknown };
  getStatus?: number;
}

/** The role-menus API over one stored list, with channels, roles and the post job. */
function menusApi(options: Options = {}) {
  let menus = options.menus ?? [];
  let jobPolls = 0;
  const api = fakeApi(({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/')) return { status: 200, body: { inGuild: true } };
    if (key === `GET ${base}/role-menus`) {
      if (options.getStatus)
        return {
          status: options.getStatus,
          body: { error: 'forbidden', message: 'You do not manage this server' },
        };
      return { status: 200, body: { menus } };
    }
    if (key === `POST ${base}/role-menus` || key === `PUT ${base}/role-menus/${MENU_ID}`) {
      if (options.saveError) return options.saveError;
      const input = body as RoleMenuBody;
      const saved = menu({
        ...input,
        description: input.description ?? '',
        color: input.color ?? null,
        max_roles: input.max_roles ?? null,
        required_role_id: input.required_role_id ?? null,
        posted: menus.find((item) => item.id === MENU_ID)?.posted ?? null,
      });
      menus = [...menus.filter((item) => item.id !== MENU_ID), saved];
      return { status: method === 'POST' ? 201 : 200, body: saved };
    }
    if (key === `DELETE ${base}/role-menus/${MENU_ID}`) {
      menus = menus.filter((item) => item.id !== MENU_ID);
      return { status: 204 };
    }
    if (key === `POST ${base}/role-menus/${MENU_ID}/post`) return { status: 202, body: { job_id: JOB_ID } };
    if (key === `GET /api/jobs/${JOB_ID}`) {
      jobPolls += 1;
      const done = jobPolls >= 2;
      if (done)
        menus = menus.map((item) => ({
          ...item,
          posted: { channel_id: ROLES_CHANNEL, message_ids: ['300000000000000501'] },
        }));
      return {
        status: 200,
        body: {
          id: JOB_ID,
          name: 'role-menus.post',
          guild_id: STATION.id,
          state: done ? 'completed' : 'active',
          progress: done ? 100 : 40,
          result: done ? { ok: true, summary: 'Posted the menu Pick a team', warnings: [] } : undefined,
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
  return { ...api, menus: () => menus };
}

const open = (query = '') => renderAt(`/dashboard/custom-reaction-roles?guild=${STATION.id}${query}`, routes);
const region = (name: string) => screen.getByRole('region', { name });
const editorReady = () => screen.findByLabelText('Title', {}, { timeout: 10_000 });

/** Picks a role in option `index`'s role picker by clicking it in the list. */
async function pickRole(index: number, name: string) {
  const input = screen.getByLabelText(`Role (option ${index + 1})`);
  fireEvent.focus(input);
  fireEvent.change(input, { target: { value: name.slice(0, 3) } });
  fireEvent.click(await screen.findByRole('option', { name: new RegExp(`^${name}`) }));
}

/** A valid buttons menu on Red and Blue in the editor, not saved yet. */
async function fillButtonsMenu() {
  await editorReady();
  fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Pick a team' } });
  const channel = screen.getByLabelText('Channel');
  await waitFor(() => expect(within(channel).getAllByRole('option')).toHaveLength(3));
  fireEvent.change(channel, { target: { value: ROLES_CHANNEL } });
  await pickRole(0, 'Red');
  fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
  await pickRole(1, 'Blue');
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('role menus page states', () => {
  it('asks to sign in when signed out', async () => {
    clearSession('signed_out');
    open();
    await screen.findByText(MESSAGES.signInRequired);
  });

  it('shows a failed load in the red box, without the list', async () => {
    signInAda();
    menusApi({ getStatus: 403 });
    open();
    await screen.findByText('You do not manage this server', {}, { timeout: 10_000 });
    expect(screen.queryByRole('button', { name: 'New menu' })).toBeNull();
  });
});

describe('role menus list', () => {
  it('says there are none yet and offers to create one', async () => {
    signInAda();
    menusApi();
    open();
    await screen.findByRole('heading', { name: 'No role menus yet' }, { timeout: 10_000 });
    fireEvent.click(screen.getByRole('button', { name: 'Create a menu' }));
    await editorReady();
    screen.getByRole('heading', { name: 'New menu' });
    expect(screen.getByTestId('location').textContent).toBe(
      `/dashboard/custom-reaction-roles?guild=${STATION.id}&menu=new`,
    );
    // A typed title is not thrown away without asking.
    fireEvent.change(screen.getByLabelText('Title'), { target: { value: 'Pick a team' } });
    fireEvent.click(screen.getByRole('button', { name: '← All menus' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Leave without saving?' });
    within(dialog).getByText(LEAVE_UNSAVED);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Pick a team');
    fireEvent.click(screen.getByRole('button', { name: '← All menus' }));
    fireEvent.click(within(await screen.findByRole('alertdialog')).getByRole('button', { name: 'Leave' }));
    await screen.findByRole('heading', { name: 'No role menus yet' });
  });

  it('lists each menu with its style, mode, channel, options and where it is posted', async () => {
    signInAda();
    menusApi({
      menus: [
        menu({ posted: { channel_id: LOBBY, message_ids: ['300000000000000501'] } }),
        menu({
          id: '11111111-2222-4333-8444-555555555555',
          title: 'Pronouns',
          style: 'select',
          mode: 'limit',
          max_roles: 2,
          channel_id: LOBBY,
          options: [{ role_id: GREEN, label: 'they/them' }],
        }),
      ],
    });
    open();
    const team = await screen.findByRole('region', { name: 'Pick a team' }, { timeout: 10_000 });
    await within(team).findByText('Posted in #lobby; the next Update moves it to #roles');
    expect(within(team).getByText('Buttons').parentElement?.textContent).toBe('ButtonsUnique#roles2 options');
    within(team).getByRole('button', { name: 'Update Pick a team' });
    const pronouns = region('Pronouns');
    within(pronouns).getByText('Not posted yet');
    expect(within(pronouns).getByText('Select menu').parentElement?.textContent).toBe(
      'Select menuLimit (up to 2)#lobby1 option',
    );
    within(pronouns).getByRole('button', { name: 'Post Pronouns' });
    screen.getByText(`2 of ${MAX_ROLE_MENUS} menus`);
    expect(screen.getByRole('button', { name: 'New menu' })).toHaveProperty('disabled', false);
  });

  it(`disables New menu with the reason at ${MAX_ROLE_MENUS} menus`, async () => {
    signInAda();
    menusApi({
      menus: Array.from({ length: MAX_ROLE_MENUS }, (_, i) =>
        menu({ id: `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`, title: `Menu ${i + 1}` }),
      ),
    });
    open();
    const create = await screen.findByRole('button', { name: 'New menu' }, { timeout: 10_000 });
    expect(create).toHaveProperty('disabled', true);
    expect(document.getElementById(create.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      MENU_LIMIT_NOTE,
    );
  });

  it('asks before deleting, saying the posted message goes and members keep their roles', async () => {
    signInAda();
    const posted = menu({ posted: { channel_id: ROLES_CHANNEL, message_ids: ['300000000000000501'] } });
    const api = menusApi({ menus: [posted] });
    open();
    const item = await screen.findByRole('region', { name: 'Pick a team' }, { timeout: 10_000 });
    fireEvent.click(within(item).getByRole('button', { name: 'Delete Pick a team' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Delete this menu?' });
    within(dialog).getByText(deleteConfirmText(posted));
    within(dialog).getByText(UNDO_FROM_HISTORY);
    expect(deleteConfirmText(posted)).toMatch(/posted message will be deleted.*Members keep the roles/);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.some((call) => call.method === 'DELETE')).toBe(false);

    fireEvent.click(within(item).getByRole('button', { name: 'Delete Pick a team' }));
    dialog = await screen.findByRole('alertdialog', { name: 'Delete this menu?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Delete menu' }));
    await screen.findByRole('heading', { name: 'No role menus yet' });
    expect(api.calls.filter((call) => call.method === 'DELETE').map((call) => call.path)).toEqual([
      `${base}/role-menus/${MENU_ID}`,
    ]);
  });

  it('posts a menu with the job progress, then says where it is', async () => {
    signInAda();
    menusApi({ menus: [menu()] });
    open();
    const item = await screen.findByRole('region', { name: 'Pick a team' }, { timeout: 10_000 });
    fireEvent.click(within(item).getByRole('button', { name: 'Post Pick a team' }));
    await within(item).findByText('Posting the role menu: done');
    within(item).getByText('Posted the menu Pick a team');
    await within(item).findByText('Posted in #roles');
    within(item).getByRole('button', { name: 'Update Pick a team' });
  });
});

describe('role menu editor', () => {
  it('creates a menu: the body the contract takes, then Saved on the new menu', async () => {
    signInAda();
    const api = menusApi();
    open('&menu=new');
    await fillButtonsMenu();
    // Picking a role names a blank option after it.
    expect((screen.getByLabelText('Label (option 2)') as HTMLInputElement).value).toBe('Blue');
    fireEvent.change(screen.getByLabelText('Label (option 1)'), { target: { value: 'Red team' } });
    fireEvent.change(screen.getByLabelText('Emoji (option 1)'), { target: { value: '🔴' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(api.calls.find((call) => call.method === 'POST')?.body).toEqual({
      title: 'Pick a team',
      description: '',
      color: null,
      channel_id: ROLES_CHANNEL,
      style: 'buttons',
      mode: 'normal',
      max_roles: null,
      required_role_id: null,
      options: [
        { role_id: RED, label: 'Red team', emoji: '🔴' },
        { role_id: BLUE, label: 'Blue' },
      ],
    });
    await waitFor(() =>
      expect(screen.getByTestId('location').textContent).toBe(
        `/dashboard/custom-reaction-roles?guild=${STATION.id}&menu=${MENU_ID}`,
      ),
    );
    // The editor stays the one typed in, now of a saved menu that can be posted.
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Pick a team');
    screen.getByRole('button', { name: 'Post in Discord' });
  });

  it('makes an option temporary: Keeps the role for 1 day sends expires_after_s', async () => {
    signInAda();
    const api = menusApi();
    open('&menu=new');
    await fillButtonsMenu();
    const keep = screen.getByLabelText('Keeps the role (option 1)') as HTMLSelectElement;
    expect(keep.value).toBe('');
    fireEvent.change(keep, { target: { value: '86400' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await screen.findByText('Saved');
    expect(
      (api.calls.find((call) => call.method === 'POST')?.body as { options?: unknown[] } | undefined)
        ?.options,
    ).toEqual([
      { role_id: RED, label: 'Red', expires_after_s: 86_400 },
      { role_id: BLUE, label: 'Blue' },
    ]);
  });

  it("shows a 400's sentence at the field it names and in the red box, keeping the edits", async () => {
    signInAda();
    const refusal =
      'Option 2: I cannot give the role Blue: my role must be above it in Server Settings → Roles';
    const api = menusApi({
      saveError: {
        status: 400,
        body: {
          error: 'invalid_input',
          message: refusal,
          issues: [{ path: 'options.1.role_id', message: refusal }],
        },
      },
    });
    open('&menu=new');
    await fillButtonsMenu();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const atField = await screen.findByText(refusal, { selector: '#option-1-role_id-problem' });
    expect(atField.closest('li')).toBe(screen.getByLabelText('Role (option 2)').closest('li'));
    expect(screen.getByLabelText('Role (option 2)').getAttribute('aria-invalid')).toBe('true');
    expect(screen.getByLabelText('Role (option 1)').getAttribute('aria-invalid')).toBeNull();
    const banner = screen.getAllByRole('alert').find((node) => node.classList.contains('dismissible'));
    expect(banner?.textContent).toContain(refusal);
    // Nothing typed is lost.
    expect((screen.getByLabelText('Title') as HTMLInputElement).value).toBe('Pick a team');
    expect((screen.getByLabelText('Role (option 2)') as HTMLInputElement).value).toBe('Blue');
    expect(api.calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('checks the menu with the contract before sending, each sentence at its field', async () => {
    signInAda();
    const api = menusApi();
    open('&menu=new');
    await editorReady();
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByLabelText('Title').getAttribute('aria-invalid')).toBe('true');
    screen.getByText('title is required', { selector: '#menu-title-problem' });
    screen.getByText('Option 1: role_id is required', { selector: '#option-0-role_id-problem' });
    screen.getByText(/^Option 1: a label is required/, { selector: '#option-0-label-problem' });
    expect(api.calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('asks for max_roles only in limit mode, and places its refusal there', async () => {
    signInAda();
    menusApi();
    open('&menu=new');
    await fillButtonsMenu();
    expect(screen.queryByLabelText('Most roles a member may hold from this menu')).toBeNull();
    fireEvent.click(screen.getByLabelText(/^Limit/));
    const maxRoles = screen.getByLabelText('Most roles a member may hold from this menu');
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    screen.getByText('max_roles: a limit menu needs max_roles from 1 to 2 (its number of options)', {
      selector: '#menu-max_roles-problem',
    });
    expect(maxRoles.getAttribute('aria-invalid')).toBe('true');
    fireEvent.change(maxRoles, { target: { value: '1' } });
    expect(screen.queryByText(/a limit menu needs max_roles/)).toBeNull();
    fireEvent.click(screen.getByLabelText(/^Unique/));
    expect(screen.queryByLabelText('Most roles a member may hold from this menu')).toBeNull();
  });

  it('disables Add option at the most the style holds, saying why', async () => {
    signInAda();
    menusApi({
      menus: [
        menu({
          style: 'select',
          options: Array.from({ length: 25 }, (_, i) => ({
            role_id: `3000000000000002${String(i).padStart(2, '0')}`,
            label: `Role ${i + 1}`,
          })),
        }),
      ],
    });
    open(`&menu=${MENU_ID}`);
    await editorReady();
    const add = screen.getByRole('button', { name: 'Add option' });
    expect(add).toHaveProperty('disabled', true);
    expect(document.getElementById(add.getAttribute('aria-describedby') ?? '')?.textContent).toBe(
      optionLimitNote('select'),
    );
    fireEvent.click(screen.getByLabelText(/^Reactions/));
    expect(screen.getByRole('button', { name: 'Add option' })).toHaveProperty('disabled', false);
  });

  it('moves an option up and removes one', async () => {
    signInAda();
    menusApi({ menus: [menu()] });
    open(`&menu=${MENU_ID}`);
    await editorReady();
    fireEvent.click(screen.getByRole('button', { name: 'Move option 2 up' }));
    expect((screen.getByLabelText('Label (option 1)') as HTMLInputElement).value).toBe('Blue team');
    fireEvent.click(screen.getByRole('button', { name: 'Remove option 1' }));
    expect((screen.getByLabelText('Label (option 1)') as HTMLInputElement).value).toBe('Red team');
    expect(screen.queryByLabelText('Label (option 2)')).toBeNull();
    screen.getByText('Unsaved changes');
  });
});

describe('role menu preview', () => {
  const preview = () => region('Preview');

  it("draws a buttons menu as core's buildRoleMenuMessages lays it out: 5 to a row", async () => {
    signInAda();
    const options = ROLE_IDS.slice(0, 7).map((role_id, i) => ({
      role_id,
      label: `Option ${i + 1}`,
      ...(i === 0 ? { emoji: '🔴' } : {}),
    }));
    const saved = menu({
      options,
      color: '#E53935',
      description: 'Pick **one** team, <@&300000000000000100>.',
    });
    menusApi({ menus: [saved] });
    open(`&menu=${MENU_ID}`);
    await editorReady();
    const [message] = buildRoleMenuMessages({ ...saved, color: 0xe53935 });
    if (!message) throw new Error('no message laid out');
    expect(message.embeds[0]?.color).toBe(0xe53935);
    const embed = within(preview()).getByTestId('preview-embed');
    expect(embed.style.borderLeftColor).toBe('#e53935');
    within(embed).getByText(message.embeds[0]?.title ?? '');
    within(embed).getByText(message.embeds[0]?.footer?.text ?? '');
    // The description's Markdown and mention, drawn: the role by its name.
    expect(within(embed).getByText('one').tagName).toBe('STRONG');
    await within(embed).findByText('@Red');
    const rows = within(within(preview()).getByRole('region', { name: 'Menu buttons' })).getAllByRole('list');
    const expected = message.components.map((row) =>
      row.components.map((component) => (component as DiscordButton).label),
    );
    expect(expected.map((row) => row.length)).toEqual([5, 2]);
    expect(
      rows.map((row) =>
        within(row)
          .getAllByRole('listitem')
          .map((item) => item.textContent),
      ),
    ).toEqual(expected.map((row, r) => row.map((label, i) => (r === 0 && i === 0 ? `🔴${label}` : label))));

    // It follows the edits: an eighth option is a third button on row 2.
    fireEvent.click(screen.getByRole('button', { name: 'Add option' }));
    fireEvent.change(screen.getByLabelText('Label (option 8)'), { target: { value: 'Option 8' } });
    const after = within(within(preview()).getByRole('region', { name: 'Menu buttons' })).getAllByRole(
      'list',
    );
    expect(after.map((row) => within(row).getAllByRole('listitem').length)).toEqual([5, 3]);
  });

  it("draws a select menu with its options, as core's layout has them", async () => {
    signInAda();
    const saved = menu({
      style: 'select',
      mode: 'limit',
      max_roles: 2,
      options: [
        { role_id: RED, label: 'Red', emoji: '🔴', description: 'The red team' },
        { role_id: BLUE, label: 'Blue' },
        { role_id: GREEN, label: 'Green' },
      ],
    });
    menusApi({ menus: [saved] });
    open(`&menu=${MENU_ID}`);
    await editorReady();
    const [message] = buildRoleMenuMessages({ ...saved, color: null });
    const select = message?.components[0]?.components[0] as DiscordStringSelect;
    const drawn = within(preview()).getByTestId('preview-select');
    within(drawn).getByText(select.placeholder ?? '');
    const items = within(within(drawn).getByRole('list', { name: 'Select menu options' })).getAllByRole(
      'listitem',
    );
    expect(items.map((item) => item.textContent)).toEqual(
      select.options.map((option) => `${option.emoji?.name ?? ''}${option.label}${option.description ?? ''}`),
    );
    within(drawn).getByText('Members pick up to 2.');
    // An embed without text of its own says how to pick once: in the description, no footer.
    expect(message?.embeds[0]?.footer).toBeUndefined();
    expect(within(preview()).getAllByText(message?.embeds[0]?.description ?? '')).toHaveLength(1);
  });
});
