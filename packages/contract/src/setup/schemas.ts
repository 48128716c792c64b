/** The server overview's setup checklist: what a first run still has to do, line by line. */
import { z } from 'zod';
import { Snowflake, Timestamp } from '../common.ts';

export const SETUP_LINE_IDS = [
  'bot_present',
  'role_order',
  'permissions',
  'channels',
  'features_on',
] as const;
export const SetupLineId = z.enum(SETUP_LINE_IDS);
export type SetupLineId = z.infer<typeof SetupLineId>;

/** One role of the server, top to bottom, as the role-order picture draws it. */
export const SetupRoleOrderEntry = z
  .object({
    id: Snowflake,
    name: z.string(),
    color: z.number().int(),
    /** The bot's own highest role. */
    is_bot: z.boolean(),
    /** A role the bot hands out (palette, personality, level rewards, menus). */
    managed_by_bot: z.boolean(),
    /** Managed by the bot but at or above its highest role: Discord refuses to give it. */
    blocked: z.boolean(),
  })
  .meta({ id: 'SetupRoleOrderEntry' });
export type SetupRoleOrderEntry = z.infer<typeof SetupRoleOrderEntry>;

export const SetupLine = z
  .object({
    id: SetupLineId,
    status: z.enum(['ok', 'todo']),
    title: z.string(),
    /** What is wrong and how to fix it (or what is fine). */
    text: z.string(),
    /** A dashboard path (starts with `/`) or Discord's settings (`https://`). */
    fix: z.object({ label: z.string(), href: z.string() }).nullable(),
    /** Problems line by line (a feature's missing permissions, a channel the bot cannot post in). */
    items: z.array(z.string()),
    /** The role-order line: the server's roles top to bottom. */
    role_order: z.array(SetupRoleOrderEntry).optional(),
  })
  .meta({ id: 'SetupLine' });
export type SetupLine = z.infer<typeof SetupLine>;

export const SetupChecklist = z
  .object({
    lines: z.array(SetupLine),
    done: z.boolean(),
    /** Set once an admin dismissed the checklist (for every admin of the server). */
    dismissed_at: Timestamp.nullable(),
  })
  .meta({ id: 'SetupChecklist' });
export type SetupChecklist = z.infer<typeof SetupChecklist>;
