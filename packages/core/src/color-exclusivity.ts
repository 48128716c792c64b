/**
 * Colour exclusivity: "one colour role at a time" is a rule about the member, not about a
 * mechanism. Whichever way a member gets a role of the palette (a colour or a shade), through the
 * colour panel, the Color Roles reaction list or any role menu whatever its mode, they end up
 * holding that one and no other role of the palette. A normal menu listing palette roles is no
 * exception: it toggles its other roles as before, but picking a colour there swaps out the
 * member's colour as every other way of picking one does.
 */

/** What the worker knows of a member's roles when it applies a change of their colour. */
export interface KnownMemberRoles {
  /**
   * The member's roles as the event carried them (a click, a reaction), with the worker's own
   * later changes laid over them where it knows them. They may predate the member's last change.
   */
  roles: ReadonlySet<string>;
  /**
   * The palette role the member's last change of colour left them with: a role id; `null` when
   * it left them none; `undefined` when no change is remembered (then `roles` are current).
   */
  last: string | null | undefined;
}

/** A change of a member's colour: a pick of one palette role, or dropping some (`all`: every one). */
export type ColorChange = { pick: string } | { drop: 'all' | readonly string[] };

export interface ColorChangePlan {
  /** The picked role to give; null when there is none or the member holds it already. */
  give: string | null;
  /** The palette roles to take away: for a pick, every one the member holds but the pick. */
  remove: string[];
  /** The palette roles the member holds once the plan is applied. */
  left: string[];
}

/** The palette roles (`paletteRoles`: colours and shades) the member holds, as far as is known. */
export function heldPaletteRoles(paletteRoles: ReadonlySet<string>, known: KnownMemberRoles): string[] {
  const held = new Set([...known.roles].filter((roleId) => paletteRoles.has(roleId)));
  if (known.last && paletteRoles.has(known.last)) held.add(known.last);
  return [...held];
}

/**
 * The one rule of colour exclusivity: what a change does to the member's palette roles. A pick
 * gives the role unless the member holds it (known from roles that no later change can have
 * overtaken) and takes away every other palette role they hold; dropping takes away the named
 * palette roles they hold, or all of them.
 */
export function planColorChange(
  paletteRoles: ReadonlySet<string>,
  known: KnownMemberRoles,
  change: ColorChange,
): ColorChangePlan {
  const held = heldPaletteRoles(paletteRoles, known);
  if ('pick' in change) {
    const { pick } = change;
    // Roles carried by an event from before the last change do not show it: only that change's
    // outcome is known then.
    const holdsPick = known.roles.has(pick) && (known.last === undefined || known.last === pick);
    return {
      give: holdsPick ? null : pick,
      remove: held.filter((roleId) => roleId !== pick),
      left: [pick],
    };
  }
  const dropped = change.drop === 'all' ? null : new Set(change.drop);
  const remove = dropped ? held.filter((roleId) => dropped.has(roleId)) : held;
  return { give: null, remove, left: held.filter((roleId) => !remove.includes(roleId)) };
}
