/** Color roles: the palette, its panel and mode. */
import { z } from 'zod';
import { SerialId, unstorableTextReason } from '../inputs.ts';

export const ColorRolesMode = z.enum(['basic', 'shades']);
export type ColorRolesMode = z.infer<typeof ColorRolesMode>;

export const Shade = z.object({
  shade_id: z.number().int(),
  shade_name: z.string(),
  hex_code: z.string(),
  /** The shade's role once generated in shades mode; null before. */
  role_id: z.string().nullable().optional(),
});
export type Shade = z.infer<typeof Shade>;
export const Color = z.object({
  /** The stored colour: send it back in a palette save to keep its role (a rename keeps members). */
  color_id: z.number().int(),
  /** Where the colour stands in the whole palette (the panel's order), across groups. */
  position: z.number().int(),
  role_id: z.string().nullable(),
  color_name: z.string(),
  hex_code: z.string(),
  shades: z.array(Shade),
});
export type Color = z.infer<typeof Color>;
export const ColorGroup = z.object({
  group_id: z.number().int(),
  group_name: z.string(),
  is_expanded: z.boolean(),
  colors: z.array(Color),
});
export type ColorGroup = z.infer<typeof ColorGroup>;

export const ColorRolesState = z
  .object({
    groups: z.array(ColorGroup),
    channel_id: z.string().nullable(),
    mode: ColorRolesMode,
    message_id: z.string().nullable().optional(),
    /** Sentences for the admin, e.g. a role the bot cannot give because it sits at or above the bot's highest role. */
    warnings: z.array(z.string()).optional(),
  })
  .meta({ id: 'ColorRoles' });
export type ColorRolesState = z.infer<typeof ColorRolesState>;

export const ExpandGroupBody = z.object({ group_id: SerialId, is_expanded: z.boolean() });

/** The most colours a palette holds: what the panel shows (5 rows of 5, less Remove color). */
export const MAX_PALETTE_COLORS = 24;
/** The most shades of one colour: the shade picker's 5 rows of 5 buttons. */
export const MAX_COLOR_SHADES = 25;
/** Discord's limit on a role's name. */
export const ROLE_NAME_MAX_LENGTH = 100;
/** Role colour 0 is "no colour" to Discord, so pure black cannot be a colour role. */
const NO_COLOR_HEX = '#000000';
const HEX = /^#?[0-9a-f]{6}$/i;

/** Letters of a word in any case, as JSON Schema patterns take no flags: `[Ee][Vv]…`. */
const anyCase = (word: string) =>
  [...word].map((letter) => `[${letter.toUpperCase()}${letter.toLowerCase()}]`).join('');
/** Storable text (no NUL, no unpaired surrogate) with something besides spaces. */
const STORABLE_NOT_BLANK = String.raw`(?=[\s\S]*\S)(?:[^\u0000\uD800-\uDFFF]|[\uD800-\uDBFF][\uDC00-\uDFFF])*$`;
const NOT_DISCORDS_OWN = String.raw`(?!\s*@?(?:${anyCase('everyone')}|${anyCase('here')})\s*$)`;
/** A shade's name: what Discord takes as a role name (see `roleNameProblem`). */
export const SHADE_NAME_PATTERN = `^${NOT_DISCORDS_OWN}${STORABLE_NOT_BLANK}`;
/** A colour's name: a shade's rules, and not Naturals (the panel's Naturals button). */
export const COLOR_NAME_PATTERN = String.raw`^${NOT_DISCORDS_OWN}(?!\s*${anyCase('naturals')}\s*$)${STORABLE_NOT_BLANK}`;
/** `#RRGGBB` (the `#` may be left out), not pure black. */
export const HEX_PATTERN = '^(?!#?0{6}$)#?[0-9A-Fa-f]{6}$';

/*
 * The fields publish their rules (pattern, lengths) for OpenAPI; `PutPaletteBody`'s refinement
 * checks exactly those rules, so that each refusal can name the colour by its place and name.
 */
const roleName = (pattern: string, description: string) =>
  z.string().meta({ pattern, minLength: 1, maxLength: ROLE_NAME_MAX_LENGTH, description });
const hexCode = z.string().meta({
  pattern: HEX_PATTERN,
  minLength: 6,
  maxLength: 7,
  description: '#RRGGBB, e.g. #1E88E5; not #000000, which Discord treats as no color',
});

export const ShadeInput = z.object({
  /** The stored shade this row edits (keeps its role); absent for a new shade. */
  shade_id: SerialId.optional().meta({
    description:
      "A shade of this color in the server's palette (as GET answers it); leave it out for a new shade",
  }),
  name: roleName(SHADE_NAME_PATTERN, 'A role name; each shade name once in the whole palette (any case)'),
  hex: hexCode,
});
export type ShadeInput = z.infer<typeof ShadeInput>;

export const ColorInput = z.object({
  /** The stored colour this row edits (keeps its role and members); absent for a new colour. */
  color_id: SerialId.optional().meta({
    description: "A color of the server's palette (as GET answers it); leave it out for a new color",
  }),
  name: roleName(COLOR_NAME_PATTERN, 'A role name; each color name once in the palette (any case)'),
  hex: hexCode,
  shades: z.array(ShadeInput).default([]).meta({ maxItems: MAX_COLOR_SHADES }),
});
export type ColorInput = z.infer<typeof ColorInput>;

/** `#RRGGBB` upper-case, as the palette stores hex codes (input may omit the `#`). */
export function normalizeHex(hex: string): string {
  const digits = hex.trim().replace(/^#/, '').toUpperCase();
  return `#${digits}`;
}

/** How a refusal names a colour: `Color 3 ("Teal")`, counting from 1 as the editor shows them. */
export function paletteColorLabel(index: number, name: string): string {
  const shown = [...name.trim()].slice(0, 40).join('');
  return shown === '' ? `Color ${index + 1}` : `Color ${index + 1} ("${shown}")`;
}

function shadeLabel(colorIndex: number, color: string, index: number, name: string): string {
  const shown = [...name.trim()].slice(0, 40).join('');
  const shade = shown === '' ? `shade ${index + 1}` : `shade ${index + 1} ("${shown}")`;
  return `${paletteColorLabel(colorIndex, color)}, ${shade}`;
}

/** Why Discord (or the panel) would refuse this colour or shade name, or null. */
function roleNameProblem(name: string, what: 'color' | 'shade'): string | null {
  const unstorable = unstorableTextReason(name);
  if (unstorable) return unstorable;
  const trimmed = name.trim();
  if (trimmed === '') return 'needs a name';
  // Counted as JSON Schema counts (code points), as the field's maxLength says.
  const length = [...name].length;
  if (length > ROLE_NAME_MAX_LENGTH)
    return `name is ${length} characters; Discord allows at most ${ROLE_NAME_MAX_LENGTH} in a role name`;
  if (/^@?(everyone|here)$/i.test(trimmed)) return `cannot be named ${trimmed}: Discord keeps that name`;
  // The single Naturals button of shades mode is `color:family:naturals`: a colour of that name would collide.
  if (what === 'color' && trimmed.toLowerCase() === 'naturals')
    return 'cannot be named Naturals: the panel keeps that name for its Naturals button';
  return null;
}

function hexProblem(hex: string): string | null {
  if (!HEX.test(hex)) return `${JSON.stringify(hex.slice(0, 20))} is not a hex color like #1E88E5`;
  if (normalizeHex(hex) === NO_COLOR_HEX)
    return '#000000 is "no color" to Discord; use a near-black such as #0A0A0A';
  return null;
}

/**
 * The whole palette in the order the panel shows it, replacing the stored one in one write.
 * Every refusal names the colour (and shade): a name Discord refuses for a role, a name twice
 * (colours among colours, shades among every shade: clicks look them up by name,
 * case-insensitive), a bad hex, more colours than the panel holds or shades than a picker holds,
 * an id twice.
 */
export const PutPaletteBody = z
  .object({
    colors: z
      .array(ColorInput)
      .min(1, 'The palette needs at least one color; Reset removes them all')
      .max(MAX_PALETTE_COLORS, `At most ${MAX_PALETTE_COLORS} colors: that is what the color panel holds`),
  })
  .superRefine((body, ctx) => {
    const refuse = (path: PropertyKey[], message: string) => ctx.addIssue({ code: 'custom', path, message });
    const colorNames = new Map<string, number>();
    const shadeNames = new Map<string, string>();
    const colorIds = new Set<number>();
    const shadeIds = new Set<number>();
    body.colors.forEach((color, i) => {
      const label = paletteColorLabel(i, color.name);
      const nameProblem = roleNameProblem(color.name, 'color');
      if (nameProblem) refuse(['colors', i, 'name'], `${label}: ${nameProblem}`);
      const key = color.name.trim().toLowerCase();
      const first = colorNames.get(key);
      if (key !== '' && first !== undefined)
        refuse(
          ['colors', i, 'name'],
          `${label}: color ${first + 1} already has this name; each color needs its own`,
        );
      else colorNames.set(key, i);
      const badHex = hexProblem(color.hex);
      if (badHex) refuse(['colors', i, 'hex'], `${label}: ${badHex}`);
      if (color.color_id !== undefined) {
        if (colorIds.has(color.color_id))
          refuse(['colors', i, 'color_id'], `${label}: color_id ${color.color_id} is listed twice`);
        colorIds.add(color.color_id);
      }
      if (color.shades.length > MAX_COLOR_SHADES)
        refuse(
          ['colors', i, 'shades'],
          `${label}: ${color.shades.length} shades; a shade picker holds at most ${MAX_COLOR_SHADES}`,
        );
      color.shades.forEach((shade, j) => {
        const where = shadeLabel(i, color.name, j, shade.name);
        const shadeProblem = roleNameProblem(shade.name, 'shade');
        if (shadeProblem) refuse(['colors', i, 'shades', j, 'name'], `${where}: ${shadeProblem}`);
        const shadeKey = shade.name.trim().toLowerCase();
        const taken = shadeNames.get(shadeKey);
        if (shadeKey !== '' && taken !== undefined)
          refuse(
            ['colors', i, 'shades', j, 'name'],
            `${where}: ${taken} already has this name; each shade needs its own`,
          );
        else shadeNames.set(shadeKey, `shade ${j + 1} of color ${i + 1}`);
        const badShadeHex = hexProblem(shade.hex);
        if (badShadeHex) refuse(['colors', i, 'shades', j, 'hex'], `${where}: ${badShadeHex}`);
        if (shade.shade_id !== undefined) {
          if (shadeIds.has(shade.shade_id))
            refuse(
              ['colors', i, 'shades', j, 'shade_id'],
              `${where}: shade_id ${shade.shade_id} is listed twice`,
            );
          shadeIds.add(shade.shade_id);
        }
      });
    });
  })
  .meta({ id: 'PutPaletteBody' });
export type PutPaletteBody = z.infer<typeof PutPaletteBody>;

/** The palette refusals that need the stored palette (400, nothing stored). */
export const PALETTE_MESSAGES = {
  unknownColor: (label: string, id: number) =>
    `${label}: color_id ${id} is not a color of this server's palette; leave it out to add a new color`,
  unknownShade: (label: string, id: number) =>
    `${label}: shade_id ${id} is not a shade of this color; leave it out to add a new shade`,
} as const;
