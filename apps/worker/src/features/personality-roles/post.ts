import { type JobResult, MESSAGES } from '@spacecadet/contract';
import {
  loadPersonalityConfig,
  loadPersonalityQuestions,
  markPersonalityMessagesPosted,
} from '@spacecadet/db/queries/personality-roles';
import { type JobContext, JobFailure } from '../../jobs/types.ts';
import { NOT_INITIALIZED } from './generate.ts';
import { type MessagesOutcome, syncPersonalityMessages } from './messages.ts';
import { withWarnings } from './roles.ts';
import { matchRefreshSchedule } from './schedule.ts';

/** "3 posted, 1 updated, 6 already up to date." */
export function messagesSummary(outcome: MessagesOutcome): string {
  const parts = [
    [outcome.posted, 'posted'],
    [outcome.reposted, 're-posted'],
    [outcome.moved, 'moved to the new channel'],
    [outcome.edited, 'updated'],
    [outcome.deleted, 'removed (question disabled)'],
    [outcome.upToDate, 'already up to date'],
  ] as const;
  const said = parts.filter(([n]) => n > 0).map(([n, what]) => `${n} ${what}`);
  return said.length > 0 ? `Messages: ${said.join(', ')}.` : 'No enabled questions: nothing to post.';
}

/**
 * `personality-roles.post`: one message per enabled question in the assignment channel
 * (`syncPersonalityMessages`: an existing one is edited, never duplicated). From then on the
 * refresh keeps them in place.
 */
export async function postPersonalityMessages(context: JobContext): Promise<JobResult> {
  const { db } = context.deps;
  const guildId = context.payload.guild_id;
  await context.progress(0);
  const config = await loadPersonalityConfig(db, guildId);
  if (!config.configured) throw new JobFailure('invalid_input', NOT_INITIALIZED);
  if (!config.assignChannelId) throw new JobFailure('invalid_input', MESSAGES.selectChannelFirst);
  const questions = await loadPersonalityQuestions(db, guildId);
  const outcome = await syncPersonalityMessages(context, questions, config.assignChannelId, (fraction) =>
    context.progress(5 + 90 * fraction),
  );
  await markPersonalityMessagesPosted(db, guildId);
  await matchRefreshSchedule(context.deps, guildId, true);
  await context.progress(100);
  const roleless = questions
    .filter((q) => q.isEnabled)
    .flatMap((q) => q.options)
    .filter((o) => !o.roleId).length;
  const warnings = [
    ...outcome.warnings,
    ...(roleless > 0
      ? [
          `${roleless} option${roleless === 1 ? ' has' : 's have'} no role yet: run Generate Roles so members can pick them.`,
        ]
      : []),
  ];
  return withWarnings({ ok: true, summary: messagesSummary(outcome) }, warnings);
}
