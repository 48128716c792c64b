/**
 * Leveling: settings, reward roles, boosts, members' XP, the leaderboard and XP import/export.
 * One module per resource under `schemas/`; this entry re-exports them all.
 */

export * from './schemas/boosts.ts';
export * from './schemas/leaderboard.ts';
export * from './schemas/member-xp.ts';
export * from './schemas/numbers.ts';
export * from './schemas/rank-card.ts';
export * from './schemas/rewards.ts';
export * from './schemas/seasons.ts';
export * from './schemas/settings.ts';
export * from './schemas/xp-transfer.ts';
