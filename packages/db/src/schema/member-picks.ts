import { index, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * What each member picked on the bot's panels, so a role an admin deleted and the bot
 * recreated is given back to the members who held it. Keyed by the pick's stable identity
 * (`target_key`, the same key the role creates are marked with: `color:<colors.id>`,
 * `shade:<color_shades.id>`, `option:<personality_options.id>`), never by the Discord role id,
 * which changes when the role is recreated. `scope` groups what one click replaces: `color` (a
 * member holds one colour) or `personality:<question_type>`. Written by the worker after a click
 * changed roles (the member's whole pick of that scope), cleared when they remove or clear it
 * and when they leave the server; a reset drops the feature's rows.
 */
export const memberRolePicks = pgTable(
  'member_role_picks',
  {
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    scope: text('scope').notNull(),
    targetKey: text('target_key').notNull(),
    pickedAt: timestamp('picked_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.guildId, t.userId, t.scope, t.targetKey] }),
    index('member_role_picks_target_idx').on(t.guildId, t.targetKey),
  ],
);

export type MemberRolePickRow = typeof memberRolePicks.$inferSelect;
