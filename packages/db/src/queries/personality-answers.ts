import { and, eq, inArray, isNull, like, lt, notInArray } from 'drizzle-orm';
import type { Db, DbTransaction } from '../client.ts';
import { memberRolePicks } from '../schema/member-picks.ts';
import { personalityAnswerEvents, personalityOptions } from '../schema/personality.ts';

/**
 * Members' personality answers as they change (`member_role_picks` rows of the `personality:`
 * scopes) and the events insights count (`personality_answer_events`). Each change is recorded
 * once: whoever's insert (or delete) of the pick row returns it writes the event, so a panel
 * click and the GUILD_MEMBER_UPDATE it causes never both count.
 */

export type AnswerSource = 'panel' | 'onboarding' | 'role';

const optionKey = (optionId: number) => `option:${optionId}`;
const optionIdOf = (targetKey: string) => {
  const match = /^option:(\d+)$/.exec(targetKey);
  return match ? Number(match[1]) : null;
};

interface EventRow {
  optionId: number;
  kind: 'picked' | 'dropped';
}

/** Writes the events of the options that still exist (an option removed meanwhile has none). */
async function insertEvents(
  tx: DbTransaction,
  member: { guildId: string; userId: string; joinedAt: Date | null },
  source: AnswerSource,
  events: readonly EventRow[],
): Promise<number> {
  if (events.length === 0) return 0;
  const options = await tx
    .select({ id: personalityOptions.id, questionId: personalityOptions.questionId })
    .from(personalityOptions)
    .where(
      and(
        eq(personalityOptions.guildId, member.guildId),
        inArray(
          personalityOptions.id,
          events.map((e) => e.optionId),
        ),
      ),
    );
  const questionOf = new Map(options.map((o) => [o.id, o.questionId]));
  const rows = events.flatMap((event) => {
    const questionId = questionOf.get(event.optionId);
    return questionId === undefined
      ? []
      : [
          {
            guildId: member.guildId,
            userId: member.userId,
            questionId,
            optionId: event.optionId,
            kind: event.kind,
            source,
            joinedAt: member.joinedAt,
          },
        ];
  });
  if (rows.length > 0) await tx.insert(personalityAnswerEvents).values(rows);
  return rows.length;
}

/**
 * A panel click that went through: the member's picks of the question's scope become exactly
 * `heldOptionIds`; what changed is written as `panel` events. Returns how many events.
 */
export async function recordPanelAnswers(
  db: Db,
  member: { guildId: string; userId: string; joinedAt: Date | null },
  scope: string,
  heldOptionIds: readonly number[],
): Promise<number> {
  const keys = heldOptionIds.map(optionKey);
  return db.transaction(async (tx) => {
    const where = and(
      eq(memberRolePicks.guildId, member.guildId),
      eq(memberRolePicks.userId, member.userId),
      eq(memberRolePicks.scope, scope),
    );
    const dropped = await tx
      .delete(memberRolePicks)
      .where(keys.length > 0 ? and(where, notInArray(memberRolePicks.targetKey, keys)) : where)
      .returning({ targetKey: memberRolePicks.targetKey });
    const picked =
      keys.length === 0
        ? []
        : await tx
            .insert(memberRolePicks)
            .values(
              keys.map((targetKey) => ({ guildId: member.guildId, userId: member.userId, scope, targetKey })),
            )
            .onConflictDoNothing()
            .returning({ targetKey: memberRolePicks.targetKey });
    return insertEvents(tx, member, 'panel', [
      ...picked.flatMap((row) => eventOf(row.targetKey, 'picked')),
      ...dropped.flatMap((row) => eventOf(row.targetKey, 'dropped')),
    ]);
  });
}

function eventOf(targetKey: string, kind: EventRow['kind']): EventRow[] {
  const optionId = optionIdOf(targetKey);
  return optionId === null ? [] : [{ optionId, kind }];
}

/** An option whose role a member gained or lost outside the panel, with its question's scope. */
export interface RoleAnswerChange {
  optionId: number;
  scope: string;
  source: AnswerSource;
}

/**
 * Roles of options given or taken outside the panel (an Onboarding answer, by hand, another
 * bot): the picks not already so are inserted or removed, and each of those is an event.
 */
export async function recordRoleAnswers(
  db: Db,
  member: { guildId: string; userId: string; joinedAt: Date | null },
  changes: { gained: readonly RoleAnswerChange[]; lost: readonly RoleAnswerChange[] },
): Promise<number> {
  if (changes.gained.length === 0 && changes.lost.length === 0) return 0;
  return db.transaction(async (tx) => {
    let written = 0;
    for (const change of changes.gained) {
      const [row] = await tx
        .insert(memberRolePicks)
        .values({
          guildId: member.guildId,
          userId: member.userId,
          scope: change.scope,
          targetKey: optionKey(change.optionId),
        })
        .onConflictDoNothing()
        .returning({ targetKey: memberRolePicks.targetKey });
      if (row)
        written += await insertEvents(tx, member, change.source, [
          { optionId: change.optionId, kind: 'picked' },
        ]);
    }
    for (const change of changes.lost) {
      const [row] = await tx
        .delete(memberRolePicks)
        .where(
          and(
            eq(memberRolePicks.guildId, member.guildId),
            eq(memberRolePicks.userId, member.userId),
            eq(memberRolePicks.scope, change.scope),
            eq(memberRolePicks.targetKey, optionKey(change.optionId)),
          ),
        )
        .returning({ targetKey: memberRolePicks.targetKey });
      if (row)
        written += await insertEvents(tx, member, change.source, [
          { optionId: change.optionId, kind: 'dropped' },
        ]);
    }
    return written;
  });
}

/** The member's recorded personality picks (target keys `option:<id>`), for comparing with their roles. */
export async function memberPersonalityOptionIds(
  db: Db,
  guildId: string,
  userId: string,
): Promise<Set<number>> {
  const rows = await db
    .select({ targetKey: memberRolePicks.targetKey })
    .from(memberRolePicks)
    .where(
      and(
        eq(memberRolePicks.guildId, guildId),
        eq(memberRolePicks.userId, userId),
        like(memberRolePicks.scope, 'personality:%'),
      ),
    );
  return new Set(rows.flatMap((row) => optionIdOf(row.targetKey) ?? []));
}

/** The member left: their answers' rows get when (those already marked keep theirs). */
export async function markPersonalityAnswersLeft(
  db: Db,
  guildId: string,
  userId: string,
  at: Date,
): Promise<void> {
  await db
    .update(personalityAnswerEvents)
    .set({ leftAt: at })
    .where(
      and(
        eq(personalityAnswerEvents.guildId, guildId),
        eq(personalityAnswerEvents.userId, userId),
        isNull(personalityAnswerEvents.leftAt),
      ),
    );
}

/** Events older than the data retention go. Returns how many. */
export async function prunePersonalityAnswerEvents(db: Db, guildId: string, before: Date): Promise<number> {
  const rows = await db
    .delete(personalityAnswerEvents)
    .where(and(eq(personalityAnswerEvents.guildId, guildId), lt(personalityAnswerEvents.at, before)))
    .returning({ id: personalityAnswerEvents.id });
  return rows.length;
}
