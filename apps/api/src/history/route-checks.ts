import type { RouteDef } from '@spacecadet/contract';
import type { GuildResources } from '../services/guild-resources.ts';
import type { UndoContext } from './restorers.ts';

/**
 * The checks the route's hooks run on a body (its `guildRefs` and `channelUses`), run on the
 * state an undo writes back: a channel or role deleted since is a 400 naming the field, as the
 * route itself would answer, never a 500.
 */
export async function checkAsRoute(context: UndoContext, def: RouteDef, body: unknown): Promise<void> {
  const { guildResources } = context.app.services;
  if (def.guildRefs) await guildResources.assertOwned(context.guildId, body, def.guildRefs);
  if (def.channelUses) await guildResources.assertBotCanUse(context.guildId, body, def.channelUses);
}

/** The user an undo writes as (the signed-in one; the request of an undo always has one). */
export function undoUserId(context: UndoContext): string {
  return context.requester.userId ?? context.request.session?.user.id ?? '';
}

/**
 * `#name` of a channel for a history summary (its id when Discord cannot say now: a summary
 * never fails the change it describes).
 */
export async function channelLabel(
  resources: GuildResources,
  guildId: string,
  channelId: string | null,
): Promise<string> {
  if (channelId === null) return 'none';
  try {
    const channel = (await resources.textChannels(guildId)).find((c) => c.id === channelId);
    return `#${channel?.name ?? channelId}`;
  } catch {
    return `#${channelId}`;
  }
}
