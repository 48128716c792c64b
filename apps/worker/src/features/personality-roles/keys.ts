import type { StoredPersonalityOption } from '@spacecadet/db/queries/personality-roles';

/** An option's stable key: marks its role create in flight and keys members' picks of it. */
export const personalityTargetKey = (option: StoredPersonalityOption) => `option:${option.id}`;
