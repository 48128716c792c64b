import { Events } from 'discord.js';
import { type GatewayHandler, onGateway, type WorkerFeature } from '../feature.ts';
import { onMemberJoin, onMemberLeave, onMemberUpdate, queueStillOwed } from './events.ts';
import { greetOwed, greetRaid } from './greet.ts';

/**
 * Welcome and goodbye: greets a member who joins (or who finished Onboarding) in the welcome
 * channel and by DM, with a welcome card, says goodbye to one who leaves, and merges a raid's
 * burst of greetings. Every greeting is recorded in Postgres when the live event is heard and
 * posted once by the jobs (greet.ts). Auto-roles and sticky roles are features/auto-roles.
 */
const events: GatewayHandler[] = [
  onGateway(Events.GuildMemberAdd, 'record a welcome', (deps, member) => onMemberJoin(deps, member)),
  onGateway(Events.GuildMemberUpdate, 'owe a welcome after onboarding', (deps, _old, member) =>
    onMemberUpdate(deps, member),
  ),
  onGateway(Events.GuildMemberRemove, 'record a goodbye', (deps, member) => onMemberLeave(deps, member)),
  onGateway(Events.ClientReady, 'queue the welcomes still owed', (deps) => queueStillOwed(deps)),
];

export const welcomeFeature = {
  name: 'welcome',
  jobs: { 'welcome.greet': greetOwed, 'welcome.goodbye': greetOwed, 'welcome.raid-batch': greetRaid },
  events,
} satisfies WorkerFeature;
