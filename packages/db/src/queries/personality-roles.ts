import { PERSONALITY_CATALOG } from '@spacecadet/core';
import type { DbTransaction } from '../client.ts';
import { personalityOptions, personalityQuestions } from '../schema/personality.ts';

/**
 * Personality roles reads and writes both the API and the worker make. Seeding, like color
 * roles' default palette, happens here from the core catalog and nowhere else.
 */

/** Seeds the catalog's questions and options once; existing questions are kept as they are. */
export async function seedPersonalityCatalog(tx: DbTransaction, guildId: string): Promise<void> {
  for (const [position, question] of PERSONALITY_CATALOG.entries()) {
    const [row] = await tx
      .insert(personalityQuestions)
      .values({
        guildId,
        questionType: question.questionType,
        title: question.title,
        description: question.description,
        isMultiSelect: question.isMultiSelect,
        position,
      })
      .onConflictDoNothing()
      .returning({ id: personalityQuestions.id });
    if (!row) continue;
    await tx.insert(personalityOptions).values(
      question.options.map((option, index) => ({
        questionId: row.id,
        guildId,
        label: option.label,
        emoji: option.emoji,
        position: index,
      })),
    );
  }
}
