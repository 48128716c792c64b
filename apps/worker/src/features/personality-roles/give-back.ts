import { lastPersonalityPickKey, memberPickLockKey } from '@spacecadet/contract';
import type { StoredPersonalityQuestion } from '@spacecadet/db/queries/personality-roles';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError } from '../../discord-rest.ts';
import { MEMBER_PICK_LOCK_TTL_MS } from '../../interactions/member-lock.ts';
import { withLockWhenFree } from '../../jobs/guild-lock.ts';
import { type GiveBack, givePicksBack } from '../../roles/member-picks.ts';
import { PERSONALITY_FEATURE } from './feature-name.ts';
import { personalityTargetKey } from './keys.ts';

/** Giving members back the personality roles they had picked, once those roles were recreated. */

const PERSONALITY_GIVE_BACK_REASON = 'Space Cadet: personality role recreated';

/** How long giving a recreated role back waits for the member's clicks before trying later. */
const GIVE_BACK_LOCK_WAIT_MS = 10_000;

/**
 * After option roles were recreated (`recreated`: target key → new role id), each member whose
 * recorded answers include one gets the new role, under their click lock. Their record of the
 * question's roles in Redis is dropped, so their next click starts from what Discord sends.
 */
export function givePersonalityPicksBack(
  deps: WorkerDeps,
  guildId: string,
  questions: readonly StoredPersonalityQuestion[],
  recreated: ReadonlyMap<string, string>,
): Promise<number> {
  const questionOf = new Map(
    questions.flatMap((question) =>
      question.options.map((option) => [personalityTargetKey(option), question.questionType] as const),
    ),
  );
  return givePicksBack(deps, guildId, recreated, async (userId, targetKey, roleId): Promise<GiveBack> => {
    const questionType = questionOf.get(targetKey);
    if (!questionType) return 'skipped';
    const lock = await withLockWhenFree(
      deps.redis,
      memberPickLockKey(PERSONALITY_FEATURE, guildId, userId),
      MEMBER_PICK_LOCK_TTL_MS,
      GIVE_BACK_LOCK_WAIT_MS,
      async (): Promise<GiveBack> => {
        try {
          await discordApi(deps.client).guilds.addRoleToMember(guildId, userId, roleId, {
            reason: PERSONALITY_GIVE_BACK_REASON,
          });
        } catch (error) {
          if (isDiscordError(error, DiscordCodes.UnknownMember, DiscordCodes.UnknownUser)) return 'gone';
          if (isDiscordError(error, DiscordCodes.MissingPermissions, DiscordCodes.UnknownRole))
            return 'skipped';
          throw error;
        }
        await deps.redis.del(lastPersonalityPickKey(guildId, userId, questionType));
        return 'given';
      },
    );
    // A member clicking non-stop for 10 s: the job fails this attempt and its retry resumes.
    if (!lock.acquired) throw new Error(`member ${userId} kept changing their roles; try again`);
    return lock.value;
  });
}
