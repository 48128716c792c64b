import { sql } from 'drizzle-orm';
import type { Db } from '../client.ts';

/**
 * Personality insights (issue 38), read from the database only: who holds each answer now
 * (`member_role_picks`), picks and drops in the period (`personality_answer_events`), the XP its
 * holders earned in the period (`member_daily_xp`) and how many of the members who joined in the
 * period and picked it were still in the server 7 days after joining.
 */

export interface OptionInsight {
  optionId: number;
  label: string;
  roleId: string | null;
  holders: number;
  picked: number;
  unpicked: number;
  /** Sum of the holders' XP over the period (divided by `holders` by the caller). */
  holdersXp: number;
  /** Members who joined in the period, picked this in it and have been in the server 7 days or left. */
  newcomers: number;
  /** Of `newcomers`, those still in the server 7 days after joining. */
  stayed: number;
}

export interface QuestionInsight {
  questionId: number;
  title: string;
  answered: number;
  options: OptionInsight[];
}

interface Row extends Record<string, unknown> {
  question_id: number;
  title: string;
  answered: number;
  option_id: number | null;
  label: string | null;
  role_id: string | null;
  holders: number;
  picked: number;
  unpicked: number;
  holders_xp: string | number;
  newcomers: number;
  stayed: number;
}

/** Every question of the guild in panel order, its options in order, over the last `days` days. */
export async function loadPersonalityInsights(
  db: Db,
  guildId: string,
  days: number,
): Promise<QuestionInsight[]> {
  const result = await db.execute<Row>(sql`
    with q as (
      select id, title, position, 'personality:' || question_type as scope
      from personality_questions where guild_id = ${guildId}
    ),
    picks as (
      select p.user_id, p.target_key, q.id as question_id
      from member_role_picks p join q on p.scope = q.scope
      where p.guild_id = ${guildId}
    ),
    since as (select now() - make_interval(days => ${days}) as at)
    select q.id as question_id, q.title,
      (select count(distinct user_id)::int from picks where picks.question_id = q.id) as answered,
      o.id as option_id, o.label, o.role_id,
      (select count(*)::int from picks where picks.question_id = q.id and picks.target_key = 'option:' || o.id)
        as holders,
      (select count(*)::int from personality_answer_events e, since
        where e.option_id = o.id and e.kind = 'picked' and e.at >= since.at) as picked,
      (select count(*)::int from personality_answer_events e, since
        where e.option_id = o.id and e.kind = 'dropped' and e.at >= since.at) as unpicked,
      (select coalesce(sum(x.xp), 0) from member_daily_xp x, since
        where x.guild_id = ${guildId} and x.day >= since.at::date
          and x.user_id in (select user_id from picks where picks.target_key = 'option:' || o.id)) as holders_xp,
      (select count(distinct e.user_id)::int from personality_answer_events e, since
        where e.option_id = o.id and e.kind = 'picked' and e.at >= since.at
          and e.joined_at >= since.at and e.joined_at + interval '7 days' <= now()) as newcomers,
      (select count(distinct e.user_id)::int from personality_answer_events e, since
        where e.option_id = o.id and e.kind = 'picked' and e.at >= since.at
          and e.joined_at >= since.at and e.joined_at + interval '7 days' <= now()
          and (e.left_at is null or e.left_at > e.joined_at + interval '7 days')) as stayed
    from q left join personality_options o on o.question_id = q.id
    order by q.position, q.id, o.position, o.id`);
  const questions = new Map<number, QuestionInsight>();
  for (const row of result.rows) {
    let question = questions.get(row.question_id);
    if (!question) {
      question = { questionId: row.question_id, title: row.title, answered: row.answered, options: [] };
      questions.set(row.question_id, question);
    }
    if (row.option_id === null) continue;
    question.options.push({
      optionId: row.option_id,
      label: row.label ?? '',
      roleId: row.role_id,
      holders: row.holders,
      picked: row.picked,
      unpicked: row.unpicked,
      holdersXp: Number(row.holders_xp),
      newcomers: row.newcomers,
      stayed: row.stayed,
    });
  }
  return [...questions.values()];
}
