/** Color roles: the palette, its panel and mode. */
import { z } from 'zod';
import { SerialId } from '../inputs.ts';

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
