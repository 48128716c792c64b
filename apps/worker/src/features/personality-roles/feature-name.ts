/**
 * Names this feature's marks of role creates in flight, its job lock and its pick locks. A module
 * of its own: roles.ts and picks.ts import each other, and picks.ts reads it at load.
 */
export const PERSONALITY_FEATURE = 'personality-roles';
