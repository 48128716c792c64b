import { COLOR_SETUP_CHANNEL } from '@spacecadet/db/queries/color-roles';
import { LEVELING_SETUP_CHANNEL } from '@spacecadet/db/queries/leveling';
import { loadManagedIds, type ManagedIds } from '@spacecadet/db/queries/member-picks';
import { PERSONALITY_SETUP_CHANNEL } from '@spacecadet/db/queries/personality-roles';
import { ROLE_MENUS_SETUP_CHANNEL } from '@spacecadet/db/queries/role-menus';
import { guildSetupCache } from '../../guild-setup-cache.ts';

/**
 * The ids of every role and message the bot manages per guild (colour and shade roles, the
 * colour panel, personality roles and question messages, reward roles, role menus' panel
 * messages), so a deleted role or
 * message is known to be ours, or not, without a Postgres query per gateway event: read once per
 * guild (one query), kept in memory (up to 20,000 guilds, guilds with nothing set up too) and
 * dropped when Postgres announces a change of the guild's colour, personality or leveling setup
 * (triggers, migrations 0004, 0006, 0007 and 0009), heard on one connection that `LISTEN`s on
 * the four channels. While that connection is down nothing is kept, and each delete reads Postgres.
 */
export const managedIds = guildSetupCache<ManagedIds>({
  name: 'managed-ids',
  channel: [COLOR_SETUP_CHANNEL, PERSONALITY_SETUP_CHANNEL, LEVELING_SETUP_CHANNEL, ROLE_MENUS_SETUP_CHANNEL],
  max: 20_000,
  load: (deps, guildId) => loadManagedIds(deps.db, guildId),
});
