import type { StoredPersonalityOption } from '@spacecadet/db/queries/personality-roles';

/** An option's stable key: marks its role create in flight and keys members' picks of it. */
export const personalityTargetKey = (option: StoredPersonalityOption) => `option:${option.id}`;

/**
 * Set while a run recreates option roles and gives them back (this worker's key; the client adds
 * the prefix): until a member got the new role back, lacking it is not "dropping" the answer.
 */
export const personalityGivingBackKey = (guildId: string) => `personality-roles:giving-back:${guildId}`;
