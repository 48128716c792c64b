/**
 * The one definition of a Discord id as Space Cadet accepts it. Real snowflakes are 17-20
 * digits, but an id an admin types may have 5-20 digits, so every check (zod schemas, env
 * files, the dashboard's query parameters, job ids) builds on this. No zod here, so the landing
 * page can import it (`@spacecadet/contract/ids`) without loading the schemas.
 */

/** The digits of a Discord id, for patterns that embed one (e.g. the job id `<name>.<guildId>`). */
export const SNOWFLAKE_DIGITS = String.raw`\d{5,20}`;

/** A whole string that is a Discord id. */
export const SNOWFLAKE_PATTERN = new RegExp(`^${SNOWFLAKE_DIGITS}$`);

/** Whether `value` is a Discord id, for callers that do not validate with zod. */
export function isSnowflake(value: string): boolean {
  return SNOWFLAKE_PATTERN.test(value);
}
