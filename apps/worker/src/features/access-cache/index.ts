import type { WorkerFeature } from '../feature.ts';
import { guildAccessCacheEvents } from './guild-access-cache.ts';

/** Drops the API's cached guild lists when Discord says a user's rights changed. */
export const accessCacheFeature = {
  name: 'access-cache',
  events: guildAccessCacheEvents,
} satisfies WorkerFeature;
