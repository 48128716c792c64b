import {
  MAX_ROLE_MENUS,
  ROLE_MENU_MESSAGES,
  type RoleMenu,
  type RoleMenuInput,
  type RoleMenuOptionInput,
} from '@spacecadet/contract';
import {
  colorIntToHex,
  hexToColorInt,
  ROLE_MENU_TEXT_MAX,
  type RoleMenuOption,
  roleMenuTextLength,
} from '@spacecadet/core';
import type { Db, RoleMenuRow } from '@spacecadet/db';
import {
  createOwnMenu,
  deleteOwnMenu,
  loadOwnMenu,
  loadOwnMenus,
  type RoleMenuValues,
  requestMenuPost,
  reviveOwnMenu,
  updateOwnMenu,
} from '@spacecadet/db/queries/role-menus';
import type { FastifyBaseLogger } from 'fastify';
import { ApiError, notFound } from '../errors.ts';
import type { AppServices } from './container.ts';
import type { GuildResources } from './guild-resources.ts';
import { enqueueGuildJob, type JobRequester } from './jobs.ts';
import { assertOptionsGivable, postedLocation, queueMenusRepair } from './role-menu-rows.ts';

/**
 * Role menus of the admin's own, read and written for their routes and their undo (history's
 * `restore-role-menus.ts`): create, replace, delete, post and bring back a menu, each checked
 * the same way (the embed fits, Discord would accept its roles and emojis).
 */

/** Stored as the editor shows it: ids and emojis trimmed, optional fields only when given. */
function toOption(option: RoleMenuOptionInput): RoleMenuOption {
  const emoji = option.emoji?.trim() ?? '';
  return {
    role_id: option.role_id.trim(),
    ...(option.label === undefined ? {} : { label: option.label }),
    ...(emoji === '' ? {} : { emoji }),
    ...(option.description === undefined ? {} : { description: option.description }),
    ...(option.expires_after_s === undefined ? {} : { expires_after_s: option.expires_after_s }),
  };
}

/** The body as stored: the color as Discord's integer, `max_roles` only where the mode reads it. */
function toValues(body: RoleMenuInput): RoleMenuValues {
  return {
    title: body.title.trim(),
    description: body.description,
    color: body.color === null ? null : hexToColorInt(body.color),
    channelId: body.channel_id,
    style: body.style,
    mode: body.mode,
    maxRoles: body.mode === 'limit' ? body.max_roles : null,
    requiredRoleId: body.required_role_id,
    options: body.options.map(toOption),
  };
}

/** A stored menu as the API answers it. */
export function toMenu(row: RoleMenuRow): RoleMenu {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    color: row.color === null ? null : colorIntToHex(row.color),
    channel_id: row.channelId,
    style: row.style,
    mode: row.mode,
    max_roles: row.maxRoles,
    required_role_id: row.requiredRoleId,
    options: row.options,
    posted: postedLocation(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    updated_by: row.updatedBy,
  };
}

/**
 * Refuses a menu whose embed text, as core's layout draws it (the description and the options'
 * lines), is longer than Discord shows: its end would be cut off, reactions' lines included.
 */
function assertMenuFits(values: RoleMenuValues): void {
  const length = roleMenuTextLength({ id: '', ...values, max_roles: values.maxRoles });
  if (length <= ROLE_MENU_TEXT_MAX) return;
  const message = `description: with the options' lines the menu's text is ${length} characters, and Discord shows at most ${ROLE_MENU_TEXT_MAX}; shorten the description, or the options' labels and descriptions`;
  throw new ApiError('invalid_input', message, [{ path: 'description', message }]);
}

/**
 * What Discord would refuse when a member picks: an option's role the bot cannot give, a custom
 * emoji of another server. The required role is only read from members, never given, so any
 * role of the server will do (the route's guildRefs checked it is one).
 */
function assertMenuGivable(resources: GuildResources, guildId: string, body: RoleMenuInput): Promise<void> {
  return assertOptionsGivable(
    resources,
    guildId,
    body.options.map((option, index) => ({
      ...option,
      path: `options.${index}`,
      name: ROLE_MENU_MESSAGES.option(index),
    })),
  );
}

type MenuServices = Pick<AppServices, 'db' | 'queue' | 'guildResources'>;

/** Who writes and how its jobs are queued: the route's request, or an undo's. */
export interface MenuWriter {
  userId: string;
  requester: JobRequester;
  log: FastifyBaseLogger;
}

/**
 * A menu as a history entry records it: the body that creates or replaces it, and whether it
 * was posted (an undo of its delete posts it again).
 */
export type RoleMenuState = RoleMenuInput & { posted: boolean };

/** A stored menu in the shape its history records. */
export function toMenuState(row: RoleMenuRow): RoleMenuState {
  return {
    title: row.title,
    description: row.description,
    color: row.color === null ? null : colorIntToHex(row.color),
    channel_id: row.channelId ?? '',
    style: row.style,
    mode: row.mode,
    max_roles: row.maxRoles,
    required_role_id: row.requiredRoleId,
    options: row.options.map((option) => ({ ...option })),
    posted: row.messageIds.length > 0,
  };
}

/** The body of a recorded menu (without `posted`). */
export function menuBody(state: RoleMenuState): RoleMenuInput {
  const { posted: _posted, ...body } = state;
  return body;
}

/** The menu now (null: none, or deleted), in the shape its history records. */
export async function readRoleMenuState(
  services: Pick<AppServices, 'db'>,
  guildId: string,
  menuId: string,
): Promise<RoleMenuState | null> {
  const row = await loadOwnMenu(services.db, guildId, menuId);
  return row ? toMenuState(row) : null;
}

/** Creates a menu (the POST route). */
export async function createRoleMenu(
  services: MenuServices,
  guildId: string,
  body: RoleMenuInput,
  userId: string,
): Promise<RoleMenuRow> {
  const values = toValues(body);
  assertMenuFits(values);
  await assertMenuGivable(services.guildResources, guildId, body);
  const created = await createOwnMenu(services.db, guildId, values, userId, MAX_ROLE_MENUS);
  if (!created) throw new ApiError('invalid_input', ROLE_MENU_MESSAGES.tooMany);
  return created;
}

/** Replaces a menu; a posted one is edited in place (the PUT route and an undo of an edit). */
export async function updateRoleMenu(
  services: MenuServices,
  guildId: string,
  menuId: string,
  body: RoleMenuInput,
  writer: MenuWriter,
): Promise<RoleMenuRow> {
  const { db, queue, guildResources } = services;
  if (!(await loadOwnMenu(db, guildId, menuId))) throw notFound(ROLE_MENU_MESSAGES.notFound);
  const values = toValues(body);
  assertMenuFits(values);
  await assertMenuGivable(guildResources, guildId, body);
  const updated = await updateOwnMenu(db, guildId, menuId, values, writer.userId);
  if (!updated) throw notFound(ROLE_MENU_MESSAGES.notFound);
  // A posted menu is edited in place (a channel change waits for Post, which moves it).
  if (updated.messageIds.length > 0) {
    await queueMenusRepair(
      queue,
      writer.log,
      guildId,
      writer.requester,
      'the 5-minute safety net updates the menu',
    );
  }
  return updated;
}

/** Deletes a menu; a posted one's messages go by the repair (the DELETE route, an undo of a create). */
export async function deleteRoleMenu(
  services: MenuServices,
  guildId: string,
  menuId: string,
  writer: MenuWriter,
): Promise<void> {
  const deleted = await deleteOwnMenu(services.db, guildId, menuId, writer.userId);
  if (deleted === null) throw notFound(ROLE_MENU_MESSAGES.notFound);
  // Posted: the repair deletes its messages, then the row.
  if (deleted === 'marked') {
    await queueMenusRepair(
      services.queue,
      writer.log,
      guildId,
      writer.requester,
      "the 5-minute safety net deletes the menu's messages",
    );
  }
}

/** Asks for the menu to be posted (the post route). */
export async function postRoleMenu(
  services: Pick<AppServices, 'db' | 'queue'>,
  guildId: string,
  menuId: string,
  requester: JobRequester,
): Promise<string> {
  if (!(await requestMenuPost(services.db, guildId, menuId))) throw notFound(ROLE_MENU_MESSAGES.notFound);
  return enqueueGuildJob(services.queue, 'role-menus.post', guildId, requester, { afterChange: true });
}

/**
 * Brings a deleted menu back under its id (an undo of its delete), checked as a create is; one
 * that was posted is posted again.
 */
export async function reviveRoleMenu(
  services: MenuServices,
  guildId: string,
  menuId: string,
  state: RoleMenuState,
  writer: MenuWriter,
): Promise<RoleMenuRow> {
  const body = menuBody(state);
  const values = toValues(body);
  assertMenuFits(values);
  await assertMenuGivable(services.guildResources, guildId, body);
  const revived = await reviveOwnMenu(services.db, guildId, menuId, values, writer.userId, MAX_ROLE_MENUS);
  if (!revived) throw new ApiError('invalid_input', ROLE_MENU_MESSAGES.tooMany);
  if (state.posted) await postRoleMenu(services, guildId, menuId, writer.requester);
  return revived;
}

/** The guild's own menus, as the list route answers them. */
export async function listRoleMenus(db: Db, guildId: string): Promise<RoleMenu[]> {
  return (await loadOwnMenus(db, guildId)).map(toMenu);
}
