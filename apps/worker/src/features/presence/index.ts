import type { WorkerFeature } from '../feature.ts';
import { botGuildEvents } from './bot-guilds.ts';

/** Which guilds the bot is in (`bot_guilds`), for the API's "bot not in guild" answers. */
export const presenceFeature = {
  name: 'presence',
  events: botGuildEvents,
} satisfies WorkerFeature;
