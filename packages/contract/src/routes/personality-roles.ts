/** Personality roles: the question catalog, its channel and jobs. */
import { z } from 'zod';
import { PersonalityQuestion, PersonalityRolesState } from '../entities.ts';
import { Snowflake } from '../id-schemas.ts';
import { ChannelBody, GuildParams, QuestionParams, ToggleQuestionBody } from '../requests.ts';
import { accepted, noContent, ok, route } from './define.ts';

export const personalityRoleRoutes = {
  getPersonalityRoles: route({
    method: 'GET',
    path: '/api/guilds/:guildId/personality-roles',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Personality roles state',
    params: GuildParams,
    responses: ok(PersonalityRolesState),
  }),
  initPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/init',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Seed the question catalog with an assignment channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    responses: ok(PersonalityRolesState),
  }),
  setPersonalityChannel: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/personality-roles/channel',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Set the assignment channel',
    params: GuildParams,
    body: ChannelBody,
    guildRefs: { channel_id: 'channel' },
    responses: ok(z.object({ channel_id: Snowflake })),
  }),
  togglePersonalityQuestion: route({
    method: 'PUT',
    path: '/api/guilds/:guildId/personality-roles/questions/:question_type/toggle',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Enable or disable a question category',
    params: QuestionParams,
    body: ToggleQuestionBody,
    responses: ok(PersonalityQuestion),
  }),
  generatePersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/generate-roles',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Create one role per option (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  postPersonalityMessages: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/post-panel',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Post or update one message per enabled question (job)',
    params: GuildParams,
    needsBot: true,
    responses: accepted,
  }),
  resetPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/personality-roles/reset',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Remove questions, options, created roles and message ids (job)',
    params: GuildParams,
    responses: accepted,
  }),
  refreshPersonalityRoles: route({
    method: 'POST',
    path: '/api/guilds/:guildId/tasks/personality-roles/refresh',
    auth: 'guild',
    tag: 'personality-roles',
    summary: 'Queue a refresh (recreate deleted roles, re-post stale messages); no body',
    params: GuildParams,
    responses: noContent,
  }),
} as const;
