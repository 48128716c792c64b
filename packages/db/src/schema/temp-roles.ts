import type { TempRoleSource } from '@spacecadet/contract';
import type { TempRoleEndReason } from '@spacecadet/core';
import { sql } from 'drizzle-orm';
import { index, pgTable, serial, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/**
 * - pending: recorded (by the API), the worker has not given the role yet;
 * - active: given, held until `expires_at`;
 * - expiring: due, the worker is taking it back (a run that died here is picked up again);
 * - ended: over (`end_reason`, `ended_at`); never touched again.
 */
export type TempRoleState = 'pending' | 'active' | 'expiring' | 'ended';

/**
 * Temporary roles: a member holds `role_id` until `expires_at`, then the worker takes it back
 * (a delayed job at `expires_at`, and a sweep of due rows every few seconds that reads this
 * table, so a lost Redis or a restart cannot keep a role on). At most one open (not ended) row
 * per member and role: giving it again moves its expiry. `granted_by` is the admin who gave it
 * (the member themself for a role-menu pick). `end_reason` set while still open is an end an
 * admin asked for (`ended_early`), which the worker carries out.
 */
export const tempRoles = pgTable(
  'temp_roles',
  {
    id: serial('id').primaryKey(),
    guildId: text('guild_id').notNull(),
    userId: text('user_id').notNull(),
    roleId: text('role_id').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    grantedBy: text('granted_by'),
    source: text('source').$type<TempRoleSource>().notNull(),
    state: text('state').$type<TempRoleState>().notNull().default('pending'),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    endReason: text('end_reason').$type<TempRoleEndReason>(),
  },
  (t) => [
    uniqueIndex('temp_roles_open_idx').on(t.guildId, t.userId, t.roleId).where(sql`${t.state} <> 'ended'`),
    index('temp_roles_due_idx').on(t.expiresAt).where(sql`${t.state} <> 'ended'`),
    index('temp_roles_member_idx').on(t.guildId, t.userId),
  ],
);

export type TempRoleRow = typeof tempRoles.$inferSelect;
