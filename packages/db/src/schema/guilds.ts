import { integer, json, pgTable, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * The free-form JSON config an admin edits in the dashboard (holds color_roles_mode). `json`,
 * not `jsonb`: jsonb reorders keys, and the admin's raw editor must show them as typed.
 */
export const guildConfigs = pgTable('guild_configs', {
  guildId: text('guild_id').primaryKey(),
  data: json('data').$type<Record<string, unknown>>().notNull().default({}),
  updatedBy: text('updated_by'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Guilds the bot is in right now; the worker inserts on join/READY and deletes on leave. */
export const botGuilds = pgTable('bot_guilds', {
  guildId: text('guild_id').primaryKey(),
  name: text('name').notNull(),
  joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  shardId: integer('shard_id'),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

export type GuildConfigRow = typeof guildConfigs.$inferSelect;
export type BotGuildRow = typeof botGuilds.$inferSelect;

/**
 * This database's identity, one row made by its migration (a random id): what a Redis prefix is
 * bound to (see prefix-binding.ts), so two deployments sharing a Redis and a prefix are told.
 */
export const deployment = pgTable('deployment', {
  id: text('id').primaryKey(),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
});
