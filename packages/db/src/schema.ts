// The whole Postgres schema. Split by feature under ./schema/; import from here (or
// `@spacecadet/db/schema`) so drizzle-kit and the client see every table.
export * from './schema/color-roles.ts';
export * from './schema/guild-data.ts';
export * from './schema/guilds.ts';
export * from './schema/history.ts';
export * from './schema/leveling.ts';
export * from './schema/leveling-seasons.ts';
export * from './schema/member-picks.ts';
export * from './schema/personality.ts';
export * from './schema/role-connections.ts';
export * from './schema/role-menus.ts';
export * from './schema/sessions.ts';
export * from './schema/setup.ts';
export * from './schema/sticky-roles.ts';
export * from './schema/temp-roles.ts';
export * from './schema/welcome.ts';
export * from './schema/welcome-greetings.ts';
