import type { HistoryRefs } from '@spacecadet/contract';
import { historyRefIds } from '@spacecadet/core';
import type { GuildResources } from '../services/guild-resources.ts';

/** Members looked up by id for one entry at most: the rest are shown by id. */
const MEMBER_LOOKUPS_MAX = 10;
/**
 * Where an id names a member: a user mention, or a `user_id` field. Other ids (messages,
 * emojis) are never looked up as members: each would cost a Discord call.
 */
const MEMBER_ID = /<@!?(\d{17,20})>|"user_id":"(\d{17,20})"/g;

function memberIds(values: readonly unknown[]): Set<string> {
  const ids = new Set<string>();
  for (const value of values) {
    const text = typeof value === 'string' ? value : (JSON.stringify(value) ?? '');
    for (const match of text.matchAll(MEMBER_ID)) ids.add(match[1] ?? match[2] ?? '');
  }
  return ids;
}

/**
 * The names, now, of the channels, roles and members an entry's summary and states mention: the
 * guild's cached channels and roles, then a member lookup (cached) for the ids left. What Discord
 * cannot say now stays an id: naming never fails the change it describes.
 */
export async function resolveHistoryRefs(
  resources: GuildResources,
  guildId: string,
  ...values: unknown[]
): Promise<HistoryRefs> {
  const ids = historyRefIds(...values).filter((id) => id !== guildId);
  if (ids.length === 0) return {};
  const refs: HistoryRefs = {};
  const [channels, roles] = await Promise.all([
    resources.textChannels(guildId).catch(() => []),
    resources.roles(guildId).catch(() => []),
  ]);
  const channelNames = new Map(channels.map((channel) => [channel.id, channel.name]));
  const roleNames = new Map(roles.map((role) => [role.id, role.name]));
  const members = memberIds(values);
  const lookups: string[] = [];
  for (const id of ids) {
    const channel = channelNames.get(id);
    const role = roleNames.get(id);
    if (channel !== undefined) refs[id] = { kind: 'channel', name: channel };
    else if (role !== undefined) refs[id] = { kind: 'role', name: role };
    else if (members.has(id)) lookups.push(id);
  }
  await Promise.all(
    lookups.slice(0, MEMBER_LOOKUPS_MAX).map(async (id) => {
      const [member] = await resources.searchMembers(guildId, id, 1).catch(() => []);
      if (member?.id === id) refs[id] = { kind: 'member', name: member.display_name };
    }),
  );
  return refs;
}
