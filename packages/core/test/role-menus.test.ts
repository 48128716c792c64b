import { describe, expect, it } from 'vitest';
import {
  type MenuPickRules,
  menuClickPick,
  planMenuPick,
  roleGrantRefusal,
  roleMenuAnswer,
} from '../src/role-menu-picks.ts';
import { buildReactionListPanel, buildRoleMenuMessages } from '../src/role-menus.ts';

const roles = ['1', '2', '3'].map((n) => `40000000000000000${n}`);
const [red, blue, green] = roles as [string, string, string];
const options = roles.map((role_id) => ({ role_id }));
const held = (...ids: string[]) => new Set(ids);

describe('planMenuPick: what a pick does in each mode', () => {
  const menu = (mode: MenuPickRules['mode'], extra: Partial<MenuPickRules> = {}): MenuPickRules => ({
    mode,
    options,
    ...extra,
  });

  it('normal adds on add and removes on remove, nothing else', () => {
    expect(planMenuPick(menu('normal'), held(red), blue, 'add')).toEqual({
      kind: 'change',
      add: [blue],
      remove: [],
    });
    expect(planMenuPick(menu('normal'), held(red, blue), blue, 'add')).toEqual({
      kind: 'change',
      add: [],
      remove: [],
    });
    expect(planMenuPick(menu('normal'), held(red, blue), blue, 'remove')).toEqual({
      kind: 'change',
      add: [],
      remove: [blue],
    });
  });

  it('unique swaps: the new role in, every other role of the menu out', () => {
    expect(planMenuPick(menu('unique'), held(red, green, '999999999999999999'), blue, 'add')).toEqual({
      kind: 'change',
      add: [blue],
      remove: [red, green],
    });
    expect(planMenuPick(menu('unique'), held(blue), blue, 'remove')).toEqual({
      kind: 'change',
      add: [],
      remove: [blue],
    });
  });

  it('verify only adds, drop only removes', () => {
    expect(planMenuPick(menu('verify'), held(blue), blue, 'remove')).toEqual({
      kind: 'change',
      add: [],
      remove: [],
    });
    expect(planMenuPick(menu('verify'), held(), blue, 'add')).toEqual({
      kind: 'change',
      add: [blue],
      remove: [],
    });
    expect(planMenuPick(menu('drop'), held(blue), blue, 'add')).toEqual({
      kind: 'change',
      add: [],
      remove: [blue],
    });
    expect(planMenuPick(menu('drop'), held(), blue, 'add')).toEqual({ kind: 'change', add: [], remove: [] });
  });

  it('limit refuses a pick past max_roles and says the limit', () => {
    const limited = menu('limit', { max_roles: 2 });
    expect(planMenuPick(limited, held(red), blue, 'add')).toEqual({
      kind: 'change',
      add: [blue],
      remove: [],
    });
    expect(planMenuPick(limited, held(red, blue), green, 'add')).toEqual({
      kind: 'refused',
      reason: 'limit',
      max: 2,
    });
    expect(planMenuPick(limited, held(red, blue), blue, 'remove')).toEqual({
      kind: 'change',
      add: [],
      remove: [blue],
    });
  });

  it('refuses members without the required role, naming it', () => {
    const gated = menu('normal', { required_role_id: '500000000000000001' });
    expect(planMenuPick(gated, held(), blue, 'add')).toEqual({
      kind: 'refused',
      reason: 'required_role',
      roleId: '500000000000000001',
    });
    expect(planMenuPick(gated, held('500000000000000001'), blue, 'add').kind).toBe('change');
  });
});

describe('menuClickPick: a click toggles where the mode lets members drop roles', () => {
  it.each([
    ['normal', true, 'remove'],
    ['normal', false, 'add'],
    ['unique', true, 'remove'],
    ['unique', false, 'add'],
    ['limit', true, 'remove'],
    ['limit', false, 'add'],
    ['verify', true, 'add'],
    ['verify', false, 'add'],
    ['drop', true, 'add'],
    ['drop', false, 'add'],
  ] as const)('%s, role held: %s → %s', (mode, isHeld, expected) => {
    expect(menuClickPick(mode, isHeld ? held(blue) : held(red), blue)).toBe(expected);
  });

  it('a click that drops a held role of a unique or limit menu removes only it', () => {
    const unique: MenuPickRules = { mode: 'unique', options };
    expect(planMenuPick(unique, held(blue), blue, menuClickPick('unique', held(blue), blue))).toEqual({
      kind: 'change',
      add: [],
      remove: [blue],
    });
  });
});

describe('buildReactionListPanel: the messages the bot posts and the dashboard previews', () => {
  it('names each row by label or role, with its description, and reacts in order', () => {
    const [message, ...more] = buildReactionListPanel('personality_roles', [
      { emoji: '🎮', role_id: red, label: 'Gamer', description: 'Plays games' },
      { emoji: '<:rocket:300000000000000081>', role_id: blue },
    ]);
    expect(more).toEqual([]);
    expect(message?.embeds[0]?.title).toBe('Personality Roles');
    expect(message?.embeds[0]?.description).toBe(
      `🎮 **Gamer** — Plays games\n<:rocket:300000000000000081> <@&${blue}>`,
    );
    expect(message?.rows.map((row) => row.emoji)).toEqual([
      { id: null, name: '🎮' },
      { id: '300000000000000081', name: 'rocket', animated: false },
    ]);
  });

  it('continues past 20 reactions in a second message', () => {
    const many = Array.from({ length: 25 }, (_, i) => ({
      emoji: `num${i}:3000000000000001${String(i).padStart(2, '0')}`,
      role_id: `4000000000000001${String(i).padStart(2, '0')}`,
    }));
    const messages = buildReactionListPanel('color_roles', many);
    expect(messages.map((m) => m.rows.length)).toEqual([20, 5]);
    expect(messages.map((m) => m.embeds[0]?.title)).toEqual(['Color Roles (1/2)', 'Color Roles (2/2)']);
  });

  it('posts nothing for an empty list', () => {
    expect(buildReactionListPanel('color_roles', [])).toEqual([]);
  });
});

describe('roleGrantRefusal: the roles the bot can give', () => {
  const guild = '300000000000000001';
  const role = (position: number, managed = false) => ({ id: '400000000000000009', managed, position });
  it('refuses @everyone, managed roles and roles not below the bot', () => {
    expect(roleGrantRefusal({ id: guild, managed: false, position: 0 }, guild, 3)).toBe('everyone');
    expect(roleGrantRefusal(role(1, true), guild, 3)).toBe('managed');
    expect(roleGrantRefusal(role(3), guild, 3)).toBe('not_below_bot');
    expect(roleGrantRefusal(role(4), guild, 3)).toBe('not_below_bot');
    expect(roleGrantRefusal(role(1), guild, 0)).toBe('not_below_bot');
    expect(roleGrantRefusal(role(2), guild, 3)).toBeNull();
  });
});

describe('buildRoleMenuMessages: components Discord draws as given', () => {
  it('an animated custom emoji is sent as animated, on a button and on a select option', () => {
    const parrot = '<a:party_parrot:300000000000000082>';
    for (const style of ['buttons', 'select'] as const) {
      const [page] = buildRoleMenuMessages({
        id: '00000000-0000-0000-0000-000000000000',
        title: 'Menu',
        description: '',
        color: null,
        style,
        mode: 'normal',
        max_roles: null,
        options: [
          { role_id: red, label: 'Parrot', emoji: parrot },
          { role_id: blue, label: 'Rocket', emoji: '<:rocket:300000000000000081>' },
        ],
      });
      const [component] = page?.components[0]?.components ?? [];
      const emojis =
        component && 'options' in component
          ? component.options.map((option) => option.emoji)
          : (page?.components[0]?.components ?? []).map((button) =>
              'emoji' in button ? button.emoji : null,
            );
      expect(emojis).toEqual([
        { name: 'party_parrot', id: '300000000000000082', animated: true },
        { name: 'rocket', id: '300000000000000081' },
      ]);
    }
  });
});

describe('roleMenuAnswer', () => {
  const menu = { options: [{ role_id: '101' }, { role_id: '102' }, { role_id: '103' }] };
  const change = (add: string[], remove: string[]) => ({ kind: 'change' as const, add, remove });
  it.each([
    ['a first role', change(['101'], []), ['101'], 'You now have <@&101>.'],
    [
      'a role beside others',
      change(['102'], []),
      ['101', '102'],
      'You now have <@&102>. Your roles from this menu: <@&101> and <@&102>.',
    ],
    ['a swap', change(['102'], ['101']), ['102'], 'You now have <@&102> and no longer <@&101>.'],
    ['two at once', change(['101', '103'], []), ['101', '103'], 'You now have <@&101> and <@&103>.'],
    ['a drop', change([], ['101']), [], 'You no longer have <@&101>.'],
    [
      'a drop, others kept',
      change([], ['101']),
      ['102', '103'],
      'You no longer have <@&101>. Your roles from this menu: <@&102> and <@&103>.',
    ],
    [
      'nothing, a role held',
      change([], []),
      ['103'],
      'Nothing changed: your roles from this menu are <@&103>.',
    ],
    ['nothing, none held', change([], []), [], "Nothing changed: you have none of this menu's roles."],
  ] as const)('%s', (_, plan, held, said) => {
    expect(roleMenuAnswer(menu, plan, new Set(held))).toBe(said);
  });

  it('names the required role and the limit when refused', () => {
    expect(roleMenuAnswer(menu, { kind: 'refused', reason: 'required_role', roleId: '9' }, new Set())).toBe(
      "This menu is for members with the <@&9> role; you don't have it yet.",
    );
    expect(roleMenuAnswer(menu, { kind: 'refused', reason: 'limit', max: 2 }, new Set())).toBe(
      'You can hold at most 2 roles of this menu. Drop one first.',
    );
  });
});
