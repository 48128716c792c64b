/**
 * Leveling reads both the API and the worker make (the settings the dashboard shows are the
 * ones XP is earned with), and the writes of the dashboard's leveling pages. One module per
 * resource under `leveling/`; this entry re-exports them all.
 */

export * from './leveling/boosts.ts';
export * from './leveling/curve.ts';
export * from './leveling/leaderboard.ts';
export * from './leveling/members.ts';
export * from './leveling/overview.ts';
export * from './leveling/prune.ts';
export * from './leveling/rank-card.ts';
export * from './leveling/rewards.ts';
export * from './leveling/settings.ts';
