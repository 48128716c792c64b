import {
  type ColorGroup,
  ColorRolesMode,
  type ColorRolesState,
  MESSAGES,
  type PutPaletteBody,
} from '@spacecadet/contract';
import { buildColorPanel } from '@spacecadet/core';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi, QUIET, STATION, signInAda } from '../../../test/fake-api.ts';
import { findEnabledButton, renderAt } from '../../../test/render.tsx';
import { ApiError, errorText } from '../../lib/api-error.ts';
import DashboardApp from '../DashboardApp.tsx';
import { UNDO_NOTE } from '../shared/ConfirmDialog.tsx';
import {
  BLACK_TIP,
  COLOR_RESET_CONFIRM,
  colorErrorText,
  NO_ROLE_YET,
  PALETTE_FULL,
  paletteRoleBadge,
  panelColorsOf,
  REMOVE_COLOR_UNDO,
  removeColorConfirm,
} from './color-roles-model.ts';

const routes = <Route path="/dashboard/*" element={<DashboardApp />} />;
/** What the reset preview says uses the palette's roles besides the palette. */
const USED_BY =
  'Also used by 2 role menus ("Games", "Pings") and the Color Roles reaction list. They stop giving these roles until the reset is undone.';
let colorIds = 0;
/** A stored colour; ids and positions count up in the order the fixture makes them. */
const color = (name: string, hex: string, shades: string[] = []) => ({
  color_id: ++colorIds,
  position: colorIds,
  role_id: null,
  color_name: name,
  hex_code: hex,
  shades: shades.map((shade, i) => ({ shade_id: i + 1, shade_name: shade, hex_code: hex })),
});
const PALETTE: ColorGroup[] = [
  {
    group_id: 1,
    group_name: 'Rainbow',
    is_expanded: true,
    colors: [color('Blue', '#1E88E5', ['Sky']), color('Red', '#E53935', ['Crimson', 'Dark Red'])],
  },
  {
    group_id: 2,
    group_name: 'Naturals',
    is_expanded: false,
    colors: [color('Brown', '#6D4C41'), color('Black', '#0A0A0A', ['Onyx']), color('Mint', '#98FF98')],
  },
];

interface Options {
  groups?: ColorGroup[];
  mode?: ColorRolesMode;
  channelId?: string | null;
  channels?: Array<{ id: string; name: string }>;
  colorStatus?: number;
  warnings?: string[];
  botAbsent?: boolean;
  /** The PUT palette's 400 message (else it saves and answers the saved palette). */
  paletteRefusal?: string;
}

/** What the API answers a palette save with: the palette as sent, ids given to new rows. */
function savedState(body: PutPaletteBody, mode: ColorRolesMode = 'basic'): ColorRolesState {
  let id = 100;
  return {
    groups: [
      {
        group_id: 1,
        group_name: 'Rainbow',
        is_expanded: true,
        colors: body.colors.map((c, position) => ({
          color_id: c.color_id ?? ++id,
          position,
          role_id: null,
          color_name: c.name.trim(),
          hex_code: `#${c.hex.replace('#', '').toUpperCase()}`,
          shades: c.shades.map((shade) => ({
            shade_id: shade.shade_id ?? ++id,
            shade_name: shade.name.trim(),
            hex_code: shade.hex.toUpperCase(),
            role_id: null,
          })),
        })),
      },
    ],
    channel_id: null,
    mode,
    message_id: null,
    warnings: [],
  };
}

function colorApi(options: Options = {}) {
  let colorLoads = 0;
  let jobPolls = 0;
  const api = fakeApi(({ method, path, body }) => {
    const key = `${method} ${path}`;
    if (key === 'GET /api/discord/me/guilds') return { status: 200, body: [STATION, QUIET] };
    if (path.startsWith('/api/bot/in-guild/'))
      return { status: 200, body: { inGuild: !options.botAbsent && path.endsWith(STATION.id) } };
    const base = `/api/guilds/${STATION.id}`;
    if (key === `GET ${base}/color-roles`) {
      colorLoads += 1;
      if (options.colorStatus)
        return { status: options.colorStatus, body: { error: 'color_roles_unavailable' } };
      return {
        status: 200,
        body: {
          groups: options.groups ?? PALETTE,
          channel_id: options.channelId ?? null,
          mode: options.mode ?? 'basic',
          ...(options.warnings ? { warnings: options.warnings } : {}),
        },
      };
    }
    if (key === `PUT ${base}/color-roles/palette`) {
      if (options.paletteRefusal)
        return { status: 400, body: { error: 'invalid_input', message: options.paletteRefusal } };
      return { status: 200, body: savedState(body as PutPaletteBody, options.mode) };
    }
    if (key === `GET ${base}/channels`) return { status: 200, body: { channels: options.channels ?? [] } };
    if (key === `GET ${base}/color-roles/reset/preview`)
      return {
        status: 200,
        body: {
          summary: 'Delete 38 roles held by 412 members.',
          roles: 38,
          members: 412,
          used_by: {
            summary: USED_BY,
            menus: [
              { id: 'menu-1', name: 'Color Roles' },
              { id: 'menu-2', name: 'Games' },
              { id: 'menu-3', name: 'Pings' },
            ],
            reward_roles: 0,
            no_xp_roles: 0,
            boosts: 0,
          },
        },
      };
    if (key === `GET ${base}/config`)
      return {
        status: 200,
        body: { data: { keep: 1, color_roles_mode: 'basic' }, updated_by: null, updated_at: null },
      };
    if (key === `PUT ${base}/config`) return { status: 200, body: { updated_by: null, updated_at: null } };
    if (key === `PUT ${base}/color-roles/channel`)
      return { status: 200, body: { channel_id: '300000000000000012' } };
    if (method === 'POST' && path.startsWith(`${base}/color-roles/`))
      return { status: 202, body: { job_id: `color-roles.generate.${STATION.id}` } };
    if (path.startsWith('/api/jobs/')) {
      jobPolls += 1;
      const done = jobPolls >= 2;
      return {
        status: 200,
        body: {
          id: `color-roles.generate.${STATION.id}`,
          name: 'color-roles.generate',
          guild_id: STATION.id,
          state: done ? 'completed' : 'active',
          progress: done ? 100 : 40,
          result: done ? { ok: true, summary: 'Created 12 roles', warnings: [GOLD_WARNING] } : undefined,
          error: null,
        },
      };
    }
    return undefined;
  });
  return { ...api, colorLoads: () => colorLoads };
}

const GOLD_WARNING =
  'I can\'t give members the role "Gold": my role must be above it in Server Settings → Roles.';

/** The colour names in the palette editor, top to bottom. */
const paletteNames = () =>
  within(screen.getByRole('region', { name: 'Palette' }))
    .getAllByRole('textbox', { name: /^Color \d+ name$/ })
    .map((input) => (input as HTMLInputElement).value);

const open = (guild = STATION.id) => renderAt(`/dashboard/color-roles?guild=${guild}`, routes);
/** The palette shows as stored until Edit palette opens the editor. */
const openEditor = async () => {
  const palette = await screen.findByRole('region', { name: 'Palette' });
  fireEvent.click(within(palette).getByRole('button', { name: 'Edit palette' }));
  // The editor is a card of its own in the list's place.
  await screen.findByRole('button', { name: 'Save palette' });
};

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('color roles', () => {
  it('shows both empty states, the tip, and needs a channel to post', async () => {
    signInAda();
    colorApi({ groups: [] });
    open();
    // The first render also loads the lazy color-roles chunk.
    await screen.findByText('No colors configured yet');
    screen.getByText(/^No colors found for this server/);
    screen.getByText(BLACK_TIP);
    screen.getByText(MESSAGES.selectChannelFirst);
    expect(screen.getByRole('button', { name: 'Post / Update Panel' })).toHaveProperty('disabled', true);
  });

  it.each(ColorRolesMode.options)('lays the %s preview out with the shared buildColorPanel', async (mode) => {
    signInAda();
    colorApi({ mode });
    open();
    const list = await screen.findByRole('region', { name: 'Panel buttons' });
    const items = within(list).getAllByRole('listitem');
    // Each button is "<emoji><label>", both straight from core's panel (what the bot posts).
    const shown = items.map((item) => [
      item.querySelector('.discord-button-emoji')?.textContent,
      item.querySelector('.discord-button-label')?.textContent,
    ]);
    const { buttons } = buildColorPanel(panelColorsOf(PALETTE), mode);
    expect(shown).toEqual(buttons.map((b) => [b.emoji, b.label]));
    expect(items.map((item) => item.textContent)).toEqual(
      mode === 'basic'
        ? ['🟦Blue', '🟥Red', '🟫Brown', '⬛Black', '🟩Mint', '✖️Remove color']
        : ['🟦Blue', '🟥Red', '🟫Naturals', '🟩Mint', '✖️Remove color'],
    );
  });

  it('lists the palette by group (name, Expanded, count, colors), then edits it in its order', async () => {
    signInAda();
    colorApi();
    open();
    const palette = await screen.findByRole('region', { name: 'Palette' });
    const groups = within(palette).getAllByRole('region');
    expect(groups.map((group) => group.getAttribute('aria-label'))).toEqual(['Rainbow', 'Naturals']);
    const naturals = within(palette).getByRole('region', { name: 'Naturals' });
    const expanded = within(naturals).getByRole('checkbox', { name: /Expanded/ }) as HTMLInputElement;
    expect([expanded.checked, expanded.disabled]).toEqual([true, true]);
    within(naturals).getByText('3 colors');
    within(naturals).getByText('Mint');
    within(palette).getByRole('list', { name: 'Red shades' });
    await openEditor();
    within(screen.getByRole('region', { name: 'Palette' })).getByText('5 of 24 colors');
    expect(paletteNames()).toEqual(['Blue', 'Red', 'Brown', 'Black', 'Mint']);
    screen.getByRole('list', { name: 'Red shades' });
  });

  it('says the database is not configured on a 501', async () => {
    signInAda();
    colorApi({ colorStatus: 501 });
    open();
    await screen.findByText(MESSAGES.colorRolesUnavailable);
  });

  it('switches mode through the full config', async () => {
    signInAda();
    const api = colorApi();
    open();
    fireEvent.change(await screen.findByLabelText('Panel mode'), { target: { value: 'shades' } });
    await waitFor(() =>
      expect(api.calls.some((c) => c.method === 'PUT' && c.path.endsWith('/config'))).toBe(true),
    );
    expect(api.calls.find((c) => c.method === 'PUT')?.body).toEqual({ keep: 1, color_roles_mode: 'shades' });
  });

  it('tracks the generate job, shows warnings, then reloads the palette', async () => {
    signInAda();
    const api = colorApi({ channelId: '300000000000000012' });
    open();
    fireEvent.click(await findEnabledButton('Generate Roles'));
    await screen.findByText('Created 12 roles');
    const banner = await screen.findByText('Space Cadet needs your attention');
    const items = within(banner.closest('[role="alert"]') as HTMLElement).getAllByRole('listitem');
    expect(items.map((item) => item.textContent)).toEqual([GOLD_WARNING]);
    const loadsAtFinish = api.colorLoads();
    await waitFor(() => expect(api.colorLoads()).toBeGreaterThan(loadsAtFinish));
  });

  it('asks before resetting, counting the roles and members it deletes and naming the menus that use them', async () => {
    signInAda();
    const api = colorApi();
    open();
    fireEvent.click(await screen.findByRole('button', { name: 'Reset' }));
    let dialog = await screen.findByRole('alertdialog', { name: 'Reset color roles?' });
    within(dialog).getByText(COLOR_RESET_CONFIRM);
    await within(dialog).findByText('Delete 38 roles held by 412 members.');
    within(dialog).getByText(USED_BY);
    within(dialog).getByText(UNDO_NOTE);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    expect(api.calls.some((c) => c.path.endsWith('/color-roles/reset'))).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Reset' }));
    dialog = await screen.findByRole('alertdialog');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Reset Color Roles' }));
    // While the request runs the dialog waits: neither button can be pressed again.
    expect(within(dialog).getByRole('button', { name: 'Reset Color Roles' })).toHaveProperty(
      'disabled',
      true,
    );
    expect(within(dialog).getByRole('button', { name: 'Cancel' })).toHaveProperty('disabled', true);
    expect(dialog.getAttribute('aria-busy')).toBe('true');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).toBeNull());
    expect(api.calls.some((c) => c.path.endsWith('/color-roles/reset'))).toBe(true);
  });

  it('offers a manual channel id when no channels are listed, checking 5-20 digits', async () => {
    signInAda();
    const api = colorApi({ channels: [] });
    open();
    const input = await screen.findByLabelText('Channel ID');
    fireEvent.change(input, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    screen.getByText(MESSAGES.channelIdRequired);
    fireEvent.change(input, { target: { value: '300000000000000012' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(api.calls.find((c) => c.path.endsWith('/color-roles/channel'))?.body).toEqual({
        channel_id: '300000000000000012',
      }),
    );
  });

  it('disables the channel select and actions when the bot is not in the server', async () => {
    signInAda();
    colorApi({ botAbsent: true });
    open();
    const select = await screen.findByLabelText('Channel');
    expect(select).toHaveProperty('disabled', true);
    within(select).getByText(MESSAGES.botNotInGuild);
    for (const name of ['Generate Roles', 'Post / Update Panel', 'Reset'])
      expect(screen.getByRole('button', { name }), name).toHaveProperty('disabled', true);
  });

  it('says Bot not in guild under the actions when the bot is absent, not Select a channel', async () => {
    signInAda();
    colorApi({ botAbsent: true });
    open();
    const actions = await screen.findByRole('region', { name: 'Actions' });
    within(actions).getByText(MESSAGES.botNotInGuild);
    expect(within(actions).queryByText(MESSAGES.selectChannelFirst)).toBeNull();
    expect(
      within(actions).getByRole('button', { name: 'Generate Roles' }).getAttribute('aria-describedby'),
    ).toBe('color-actions-hint');
  });

  it('says Bot not in guild once on the page, with the invite button', async () => {
    signInAda();
    colorApi({ botAbsent: true });
    open();
    const actions = await screen.findByRole('region', { name: 'Actions' });
    // Once as a sentence (the disabled channel select still reads it in its box).
    const said = screen.getAllByText(MESSAGES.botNotInGuild).filter((node) => !node.closest('select'));
    expect(said).toHaveLength(1);
    const invite = within(actions).getByRole('link', { name: 'Invite to Server' });
    expect(invite.getAttribute('href')).toBe(`http://127.0.0.1:4000/install?guildId=${STATION.id}`);
    expect(screen.getAllByRole('link', { name: 'Invite to Server' })).toHaveLength(1);
  });

  it.each([
    ['basic', ['Blue', 'Red', 'Brown', 'Black', 'Mint']],
    // Shades get the roles: colours with shades do not claim No role yet from their own role_id.
    ['shades', ['Brown', 'Mint']],
  ] as const)('badges No role yet in %s mode only where it is true', async (mode, without) => {
    signInAda();
    colorApi({ mode });
    open();
    await openEditor();
    const palette = screen.getByRole('region', { name: 'Palette' });
    const badged = within(palette)
      .queryAllByText(NO_ROLE_YET)
      .map(
        (badge) =>
          badge.closest('.palette-color-row')?.querySelector<HTMLInputElement>('.palette-name')?.value,
      );
    expect(badged).toEqual(without);
  });
});

describe('editing the palette', () => {
  const palette = () => screen.getByRole('region', { name: 'Palette' });
  const previewLabels = () =>
    within(screen.getByRole('region', { name: 'Panel buttons' }))
      .getAllByRole('listitem')
      .map((item) => item.querySelector('.discord-button-label')?.textContent);
  const type = (name: string | RegExp, value: string) =>
    fireEvent.change(within(palette()).getByRole('textbox', { name }), { target: { value } });
  const paletteSaves = (api: ReturnType<typeof colorApi>) =>
    api.calls.filter((c) => c.method === 'PUT' && c.path.endsWith('/color-roles/palette'));

  it('renames, recolors, adds, removes (asked first) and reorders; the preview follows; Save sends it all', async () => {
    signInAda();
    const api = colorApi();
    open();
    await openEditor();
    const save = within(palette()).getByRole('button', { name: 'Save palette' });
    expect(save).toHaveProperty('disabled', true);

    type('Color 2 name', 'Scarlet');
    type('Color 2 hex', '#ff2400');
    expect(previewLabels()).toContain('Scarlet');
    expect(previewLabels()).not.toContain('Red');
    fireEvent.click(within(palette()).getByRole('button', { name: 'Remove Brown' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this color?' });
    within(dialog).getByText('Remove Brown?');
    within(dialog).getByText(REMOVE_COLOR_UNDO);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    expect(screen.queryByRole('alertdialog')).toBeNull();
    fireEvent.click(within(palette()).getByRole('button', { name: 'Move Mint up' }));
    fireEvent.click(within(palette()).getByRole('button', { name: 'Add color' }));
    type('Color 5 name', 'Teal');
    fireEvent.change(within(palette()).getByLabelText('Color 5 color'), { target: { value: '#008080' } });
    expect(paletteNames()).toEqual(['Blue', 'Scarlet', 'Mint', 'Black', 'Teal']);
    expect(previewLabels()).toEqual(['Blue', 'Scarlet', 'Mint', 'Black', 'Teal', 'Remove color']);
    within(palette()).getByText('Unsaved changes');

    fireEvent.click(save);
    // Saved: the stored palette shows again, with the note.
    await screen.findByText(/^Palette saved\. Press Generate Roles/);
    const [ids] = [PALETTE.flatMap((group) => group.colors).map((c) => c.color_id)];
    expect(paletteSaves(api).map((call) => call.body)).toEqual([
      {
        colors: [
          {
            color_id: ids[0],
            name: 'Blue',
            hex: '#1E88E5',
            shades: [{ shade_id: 1, name: 'Sky', hex: '#1E88E5' }],
          },
          {
            color_id: ids[1],
            name: 'Scarlet',
            hex: '#ff2400',
            shades: [
              { shade_id: 1, name: 'Crimson', hex: '#E53935' },
              { shade_id: 2, name: 'Dark Red', hex: '#E53935' },
            ],
          },
          { color_id: ids[4], name: 'Mint', hex: '#98FF98', shades: [] },
          {
            color_id: ids[3],
            name: 'Black',
            hex: '#0A0A0A',
            shades: [{ shade_id: 1, name: 'Onyx', hex: '#0A0A0A' }],
          },
          { name: 'Teal', hex: '#008080', shades: [] },
        ],
      },
    ]);
    // The answer is the page's state now: the stored palette shows again, the hex as stored.
    expect(within(palette()).queryByRole('button', { name: 'Save palette' })).toBeNull();
    within(palette()).getByText('Scarlet');
    within(palette()).getByText('#FF2400');
    within(palette()).getByText(/^Palette saved\. Press Generate Roles/);
  });

  it('asks before removing a colour that has a role, and keeps it when the admin says no', async () => {
    signInAda();
    colorApi({
      groups: [{ ...PALETTE[0], colors: [{ ...color('Gold', '#FFD700'), role_id: '9' }] } as ColorGroup],
    });
    open();
    await openEditor();
    fireEvent.click(await screen.findByRole('button', { name: 'Remove Gold' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this color?' });
    within(dialog).getByText(removeColorConfirm('Gold', true));
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(removeColorConfirm('Gold', true)).toMatch(/Generate Roles deletes its role/);
    expect(paletteNames()).toEqual(['Gold']);
  });

  it("shows the server's refusal, keeps the draft, and shows Saving… meanwhile", async () => {
    signInAda();
    const refusal = 'Color 2 ("Blue"): color 1 already has this name; each color needs its own';
    const api = colorApi({ paletteRefusal: refusal });
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    const answer = api.fetchMock.getMockImplementation();
    api.fetchMock.mockImplementation(async (input, init) => {
      if (init?.method === 'PUT' && String(input).endsWith('/color-roles/palette')) await gate;
      return answer?.(input, init) as Promise<Response>;
    });
    open();
    await openEditor();
    type('Color 2 name', 'blue');
    fireEvent.click(within(palette()).getByRole('button', { name: 'Save palette' }));
    const saving = await within(palette()).findByRole('button', { name: 'Saving…' });
    expect(saving).toHaveProperty('disabled', true);
    release();
    const alert = await within(palette()).findByRole('alert');
    expect(alert.textContent).toContain(refusal);
    expect(paletteNames()[1]).toBe('blue');
    within(palette()).getByText('Unsaved changes');
  });

  it('edits shades in shades mode: rename, recolor, add and remove', async () => {
    signInAda();
    const api = colorApi({ mode: 'shades' });
    open();
    await openEditor();
    type('Color 2 shade 1 name', 'Cardinal');
    type('Color 2 shade 1 hex', '#C41E3A');
    fireEvent.click(within(palette()).getByRole('button', { name: 'Remove shade Dark Red of Red' }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Remove this shade?' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Remove' }));
    fireEvent.click(within(palette()).getByRole('button', { name: 'Add shade to Red' }));
    type('Color 2 shade 2 name', 'Rose');
    fireEvent.click(within(palette()).getByRole('button', { name: 'Save palette' }));
    // Saved: the stored palette shows again, with the note.
    await screen.findByText(/^Palette saved\. Press Generate Roles/);
    const body = paletteSaves(api)[0]?.body as PutPaletteBody;
    expect(body.colors[1]?.shades).toEqual([
      { shade_id: 1, name: 'Cardinal', hex: '#C41E3A' },
      { name: 'Rose', hex: '#E53935' },
    ]);
  });

  it('stops adding at 24 colors, as the panel holds no more', async () => {
    signInAda();
    const many = Array.from({ length: 24 }, (_, i) => color(`C${i}`, '#123456'));
    colorApi({ groups: [{ group_id: 1, group_name: 'Rainbow', is_expanded: true, colors: many }] });
    open();
    await openEditor();
    const add = await screen.findByRole('button', { name: 'Add color' });
    expect(add).toHaveProperty('disabled', true);
    within(palette()).getByText(PALETTE_FULL);
  });
});

describe('paletteRoleBadge', () => {
  const shaded = (...roles: Array<string | null>) => ({
    ...color(
      'Red',
      '#E53935',
      roles.map((_, i) => `Shade ${i}`),
    ),
    shades: roles.map((role_id, i) => ({
      shade_id: i,
      shade_name: `Shade ${i}`,
      hex_code: '#E53935',
      role_id,
    })),
  });

  it('counts shade roles in shades mode and keeps the colour role in basic mode', () => {
    expect(paletteRoleBadge(shaded('1', '2', '3'), 'shades')).toEqual({
      text: '3 of 3 shade roles',
      missing: false,
    });
    expect(paletteRoleBadge(shaded('1', null), 'shades')).toEqual({
      text: '1 of 2 shade roles',
      missing: true,
    });
    expect(paletteRoleBadge(shaded(null, null), 'shades')).toEqual({ text: NO_ROLE_YET, missing: true });
    expect(paletteRoleBadge(shaded('1', '2'), 'basic')).toEqual({ text: NO_ROLE_YET, missing: true });
    expect(paletteRoleBadge({ ...shaded('1'), role_id: '9' }, 'basic')).toBeNull();
    expect(paletteRoleBadge({ ...color('Mint', '#98FF98'), role_id: '9' }, 'shades')).toBeNull();
  });
});

describe('colorErrorText', () => {
  it('reads any 501 on color roles as the tables missing, and only there', () => {
    const bare501 = new ApiError('api_error_501', { status: 501 });
    expect(colorErrorText(bare501)).toBe(MESSAGES.colorRolesUnavailable);
    expect(errorText(bare501)).toBe('api_error_501');
    expect(colorErrorText(new ApiError('api_error_403', { status: 403, code: 'forbidden' }))).toBe(
      'You do not manage this server',
    );
  });
});
