/**
 * Names this feature's marks of role creates in flight, its job lock and its member pick locks.
 * A module of its own so `picks.ts` and `roles.ts`, which import each other, can both use it
 * while they load (a worker started with `src/main.ts` loads picks.ts first).
 */
export const PERSONALITY_FEATURE = 'personality-roles';
