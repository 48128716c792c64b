import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  text,
  timestamp,
  unique,
} from 'drizzle-orm/pg-core';

/** Palette groups shown on the Color Roles screen (e.g. Rainbow, Naturals). */
export const colorGroups = pgTable(
  'color_groups',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    position: integer('position').notNull().default(0),
    isExpanded: boolean('is_expanded').notNull().default(true),
  },
  (t) => [
    unique('color_groups_guild_name_uq').on(t.guildId, t.name),
    index('color_groups_guild_idx').on(t.guildId),
  ],
);

/**
 * One colour family. `role_id` is set once the bot created the Discord role (basic mode);
 * names are unique per guild because panel buttons look colours up by name.
 */
export const colors = pgTable(
  'colors',
  {
    id: serial('id').primaryKey(),
    groupId: integer('group_id')
      .notNull()
      .references(() => colorGroups.id, { onDelete: 'cascade' }),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    hexCode: text('hex_code').notNull(),
    position: integer('position').notNull().default(0),
    roleId: text('role_id'),
  },
  (t) => [
    unique('colors_guild_name_uq').on(t.guildId, t.name),
    index('colors_guild_idx').on(t.guildId),
    index('colors_group_idx').on(t.groupId),
  ],
);

/** Shades of a colour; in shades mode each gets its own Discord role. */
export const colorShades = pgTable(
  'color_shades',
  {
    id: serial('id').primaryKey(),
    colorId: integer('color_id')
      .notNull()
      .references(() => colors.id, { onDelete: 'cascade' }),
    guildId: text('guild_id').notNull(),
    name: text('name').notNull(),
    hexCode: text('hex_code').notNull(),
    position: integer('position').notNull().default(0),
    roleId: text('role_id'),
  },
  (t) => [index('color_shades_guild_idx').on(t.guildId), index('color_shades_color_idx').on(t.colorId)],
);

/**
 * Where the color panel is posted, so "Post / Update Panel" edits instead of duplicating.
 * `channel_id` is the channel the admin picked; `message_channel_id` is the channel the posted
 * `message_id` lives in, which differs after the admin picks another channel until the next post
 * moves the panel (and lets that post, or a reset, delete the old message).
 */
export const colorPanels = pgTable('color_panels', {
  guildId: text('guild_id').primaryKey(),
  channelId: text('channel_id'),
  messageId: text('message_id'),
  messageChannelId: text('message_channel_id'),
  /**
   * The palette was edited since the panel was last posted: the next Generate Roles edits the
   * posted panel to match (a mode switch alone leaves that to Post / Update Panel).
   */
  paletteEdited: boolean('palette_edited').notNull().default(false),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * Discord roles of colours and shades an admin removed from the palette: the next Generate
 * Roles (or a reset) deletes them, then the row. Written in the palette save's transaction, so
 * no removed colour leaves its role behind unnoticed.
 */
export const colorRemovedRoles = pgTable(
  'color_removed_roles',
  {
    guildId: text('guild_id').notNull(),
    roleId: text('role_id').notNull(),
    /** The colour or shade name, for the job's summary. */
    name: text('name').notNull(),
    removedAt: timestamp('removed_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.guildId, t.roleId] })],
);

export type ColorGroupRow = typeof colorGroups.$inferSelect;
export type ColorRow = typeof colors.$inferSelect;
export type ColorShadeRow = typeof colorShades.$inferSelect;
export type ColorPanelRow = typeof colorPanels.$inferSelect;
