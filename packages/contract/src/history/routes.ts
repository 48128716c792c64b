/** History: the server's changes, their undo, and what a destructive button is about to do. */
import { GuildParams } from '../common.ts';
import { LevelingRoleParams } from '../leveling/schemas.ts';
import { ok, route } from '../route-definition.ts';
import {
  HistoryEntryParams,
  HistoryList,
  HistoryQuery,
  ImpactPreview,
  UndoBody,
  UndoDone,
  UndoQueued,
} from './schemas.ts';

const PREVIEW_ERRORS = [400, 401, 403, 409, 429, 502, 503] as const;
/** A preview that reads only stored rows needs no bot in the server: no 409. */
const STORED_PREVIEW_ERRORS = [400, 401, 403, 429, 502, 503] as const;

export const historyRoutes = {
  listHistory: route({
    method: 'GET',
    path: '/api/guilds/:guildId/history',
    auth: 'guild',
    tag: 'history',
    summary: "The server's changes, newest first",
    params: GuildParams,
    query: HistoryQuery,
    errors: [400, 401, 403, 429, 502, 503],
    responses: ok(HistoryList),
  }),
  undoHistory: route({
    method: 'POST',
    path: '/api/guilds/:guildId/history/:entryId/undo',
    auth: 'guild',
    tag: 'history',
    summary: 'Undo a change (202 with a job when Discord must change)',
    params: HistoryEntryParams,
    body: UndoBody,
    history: 'history.undo',
    errors: [400, 401, 403, 404, 409, 413, 415, 429, 502, 503],
    responses: { 200: UndoDone, 202: UndoQueued },
  }),
  previewColorReset: route({
    method: 'GET',
    path: '/api/guilds/:guildId/color-roles/reset/preview',
    auth: 'guild',
    needsBot: true,
    tag: 'history',
    summary: 'What Reset Color Roles will delete',
    params: GuildParams,
    // 501: the color tables are missing, as on every color roles route.
    errors: [...PREVIEW_ERRORS, 501],
    responses: ok(ImpactPreview),
  }),
  previewPersonalityReset: route({
    method: 'GET',
    path: '/api/guilds/:guildId/personality-roles/reset/preview',
    auth: 'guild',
    needsBot: true,
    tag: 'history',
    summary: 'What Reset Personality will delete',
    params: GuildParams,
    errors: PREVIEW_ERRORS,
    responses: ok(ImpactPreview),
  }),
  previewLevelingReset: route({
    method: 'GET',
    path: '/api/guilds/:guildId/leveling/reset-all/preview',
    auth: 'guild',
    tag: 'history',
    summary: 'What Reset Leveling will delete',
    params: GuildParams,
    errors: STORED_PREVIEW_ERRORS,
    responses: ok(ImpactPreview),
  }),
  previewPruneLeavers: route({
    method: 'GET',
    path: '/api/guilds/:guildId/leveling/prune-leavers/preview',
    auth: 'guild',
    needsBot: true,
    tag: 'history',
    summary: 'Whose XP Prune leavers will remove',
    params: GuildParams,
    errors: PREVIEW_ERRORS,
    responses: ok(ImpactPreview),
  }),
  previewLevelingRoleDelete: route({
    method: 'GET',
    path: '/api/guilds/:guildId/leveling/roles/:roleId/delete-preview',
    auth: 'guild',
    tag: 'history',
    summary: 'What deleting this reward role will remove',
    params: LevelingRoleParams,
    errors: [...STORED_PREVIEW_ERRORS, 404],
    responses: ok(ImpactPreview),
  }),
} as const;
