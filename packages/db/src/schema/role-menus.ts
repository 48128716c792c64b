import type { ReactionList, RoleMenuMode, RoleMenuStyle } from '@spacecadet/contract';
import type { RoleMenuOption } from '@spacecadet/core';
import { sql } from 'drizzle-orm';
import { index, integer, jsonb, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * Role menus: every menu of roles members pick from themselves, one row each (see core's
 * `role-menus.ts` for the model). The Reaction Roles editor's two lists are the rows whose
 * `list_key` is `color_roles` or `personality_roles` (style `reactions`); an admin's own menus
 * have no `list_key`. `message_ids` are the messages the bot posted for the menu, in order, in
 * `message_channel_id` (which differs from `channel_id` until a post moves the menu).
 * `post_requested_at`: the admin asked for the menu to be posted (or updated, moved) and the
 * `role-menus.post` job has not done it yet. `deleted_at`: the admin deleted the menu; the row
 * stays until the worker has deleted its posted messages (then it goes).
 */
export const roleMenus = pgTable(
  'role_menus',
  {
    id: text('id').primaryKey().default(sql`gen_random_uuid()::text`),
    guildId: text('guild_id').notNull(),
    listKey: text('list_key').$type<ReactionList>(),
    title: text('title').notNull().default(''),
    description: text('description').notNull().default(''),
    color: integer('color'),
    style: text('style').$type<RoleMenuStyle>().notNull().default('reactions'),
    mode: text('mode').$type<RoleMenuMode>().notNull().default('normal'),
    maxRoles: integer('max_roles'),
    requiredRoleId: text('required_role_id'),
    channelId: text('channel_id'),
    options: jsonb('options').$type<RoleMenuOption[]>().notNull().default([]),
    messageIds: text('message_ids').array().notNull().default(sql`'{}'::text[]`),
    messageChannelId: text('message_channel_id'),
    postRequestedAt: timestamp('post_requested_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    updatedBy: text('updated_by'),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('role_menus_guild_idx').on(t.guildId),
    uniqueIndex('role_menus_guild_list_idx').on(t.guildId, t.listKey),
  ],
);

export type RoleMenuRow = typeof roleMenus.$inferSelect;
