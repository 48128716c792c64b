import { describe, expect, it } from 'vitest';
import { type KnownMemberRoles, planColorChange } from '../src/color-exclusivity.ts';

const [red, blue, navy, crew] = ['1', '2', '3', '4'].map((n) => `50000000000000000${n}`) as [
  string,
  string,
  string,
  string,
];
/** Red and Blue are colours, Navy a shade; Crew is no role of the palette. */
const palette = new Set([red, blue, navy]);
const known = (roles: string[], last?: string | null): KnownMemberRoles => ({ roles: new Set(roles), last });

describe('planColorChange: one role of the palette at a time, whichever way it was picked', () => {
  it.each([
    [
      'a member without a colour gets the pick',
      known([crew]),
      blue,
      { give: blue, remove: [], left: [blue] },
    ],
    [
      'a colour is swapped out for the pick',
      known([crew, red]),
      blue,
      { give: blue, remove: [red], left: [blue] },
    ],
    [
      'colours and shades alike: every palette role held but the pick goes',
      known([red, navy, crew]),
      blue,
      { give: blue, remove: [red, navy], left: [blue] },
    ],
    [
      'the pick held already is not given again; the others still go',
      known([blue, red]),
      blue,
      { give: null, remove: [red], left: [blue] },
    ],
    [
      "the last change's colour counts though the event's roles predate it",
      known([crew], navy),
      blue,
      { give: blue, remove: [navy], left: [blue] },
    ],
    [
      'roles from before a change that took the pick away do not count as holding it',
      known([blue], null),
      blue,
      { give: blue, remove: [], left: [blue] },
    ],
    [
      'nor do they after a change to another colour',
      known([blue], red),
      blue,
      { give: blue, remove: [red], left: [blue] },
    ],
  ])('%s', (_, member, pick, plan) => {
    expect(planColorChange(palette, member, { pick })).toEqual(plan);
  });

  it.each([
    ['dropping all takes every palette role held', known([red, crew], navy), 'all', [red, navy], []],
    ['dropping one takes only that one', known([red, navy]), [navy], [navy], [red]],
    ['dropping a role the member does not hold takes nothing', known([crew]), [red], [], []],
    ['a role of no palette is never taken', known([crew]), [crew], [], []],
  ] as const)('%s', (_, member, drop, remove, left) => {
    expect(planColorChange(palette, member, { drop })).toEqual({ give: null, remove, left });
  });
});
