/**
 * The server overview's setup checklist: whether the bot is there, its role above every role it
 * hands out (with the server's role order to draw), the permissions each feature in use lacks
 * (core's FEATURE_PERMISSIONS), the channels features post in (chosen, and the bot able to post
 * there), and which features are on. Discord's side (roles, channels, the bot's member) is kept
 * in Redis under `guildSetupCacheKey`, which the worker deletes on the gateway's role, channel
 * and bot-member events, so the overview's polling costs Discord nothing until something changed.
 * Why one file: the five lines share one read of Discord and of the database (serverUse), and
 * each line is a short function; split, they would pass that read around between files.
 */
import {
  type ChannelUse,
  channelPermissionBits,
  guildSetupCacheKey,
  missingChannelPermissions,
  type SetupChecklist,
  type SetupLine,
  type SetupRoleOrderEntry,
  type WelcomeSettings,
} from '@spacecadet/contract';
import type { BotFeature } from '@spacecadet/core';
import { missingBotPermissions } from '@spacecadet/core/bot-permissions';
import {
  colorPanels,
  colorShades,
  colors,
  type Db,
  guildSetupDismissals,
  levelingRoles,
  levelingSettings,
  personalityConfigs,
  personalityOptions,
  roleMenus,
} from '@spacecadet/db';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import { and, eq, isNull } from 'drizzle-orm';
import type { Redis } from 'ioredis';
import { z } from 'zod';
import { isBotInGuild } from './bot-presence.ts';
import { isUndefinedTable } from './dependency-errors.ts';
import type { DiscordClient } from './discord.ts';
import { DiscordChannel, DiscordMember, DiscordRole } from './discord-answers.ts';
import { discordFailure } from './guild-resource-answers.ts';

const CACHE_SEC = 300;
const DiscordSide = z.object({
  roles: z.array(DiscordRole),
  channels: z.array(DiscordChannel),
  member: DiscordMember.nullable(),
});
interface DiscordSide {
  roles: DiscordRole[];
  channels: DiscordChannel[];
  member: DiscordMember | null;
}

const FEATURE_NAMES: Record<BotFeature, string> = {
  'color-roles': 'Color roles',
  'personality-roles': 'Personality roles',
  leveling: 'Leveling',
  'reaction-roles': 'Role menus',
  onboarding: 'Onboarding',
  welcome: 'Welcome',
};
const FEATURE_PAGES: Record<BotFeature, string> = {
  'color-roles': '/dashboard/color-roles',
  'personality-roles': '/dashboard/personality-roles',
  leveling: '/dashboard/leveling/settings',
  'reaction-roles': '/dashboard/custom-reaction-roles',
  onboarding: '/dashboard/personality-roles',
  welcome: '/dashboard/welcome',
};
const SERVER_SETTINGS = 'https://discord.com/channels/';

interface ChannelNeed {
  feature: BotFeature;
  what: string;
  channelId: string | null;
  use: ChannelUse;
}

/** Rows of a color table; none where this deployment lacks the color tables (their routes answer 501). */
async function colorRows<T>(read: Promise<T[]>): Promise<T[]> {
  try {
    return await read;
  } catch (error) {
    if (isUndefinedTable(error)) return [];
    throw error;
  }
}

/** What the database says the server uses: features on, roles handed out, channels needed. */
async function serverUse(db: Db, guildId: string) {
  const [panel] = await colorRows(db.select().from(colorPanels).where(eq(colorPanels.guildId, guildId)));
  const [personality] = await db
    .select()
    .from(personalityConfigs)
    .where(eq(personalityConfigs.guildId, guildId));
  const [leveling] = await db.select().from(levelingSettings).where(eq(levelingSettings.guildId, guildId));
  const menus = await db
    .select()
    .from(roleMenus)
    .where(and(eq(roleMenus.guildId, guildId), isNull(roleMenus.deletedAt)));
  const roleRows = await Promise.all([
    colorRows(db.select({ id: colors.roleId }).from(colors).where(eq(colors.guildId, guildId))),
    colorRows(
      db.select({ id: colorShades.roleId }).from(colorShades).where(eq(colorShades.guildId, guildId)),
    ),
    db
      .select({ id: personalityOptions.roleId })
      .from(personalityOptions)
      .where(eq(personalityOptions.guildId, guildId)),
    db.select({ id: levelingRoles.roleId }).from(levelingRoles).where(eq(levelingRoles.guildId, guildId)),
  ]);
  const managed = new Set<string>();
  for (const rows of roleRows) for (const row of rows) if (row.id) managed.add(row.id);
  for (const menu of menus) for (const option of menu.options) managed.add(option.role_id);
  const welcome = await getWelcomeSettings(db, guildId);
  for (const id of [...welcome.auto_roles, ...welcome.bot_auto_roles]) managed.add(id);
  const on: BotFeature[] = [];
  if (panel?.channelId) on.push('color-roles');
  if (personality?.configured) on.push('personality-roles');
  if (leveling?.enabled) on.push('leveling');
  if (menus.length > 0) on.push('reaction-roles');
  const welcomeRoles = welcome.auto_roles.length + welcome.bot_auto_roles.length > 0;
  if (welcome.enabled || welcome.goodbye_enabled || welcomeRoles || welcome.sticky_roles) on.push('welcome');
  const needs: ChannelNeed[] = [
    { feature: 'color-roles', what: 'Color panel', channelId: panel?.channelId ?? null, use: 'color_panel' },
    {
      feature: 'personality-roles',
      what: 'Personality questions',
      channelId: personality?.assignChannelId ?? null,
      use: 'personality_messages',
    },
  ];
  if (leveling?.enabled && leveling.levelUpDestination === 'channel') {
    needs.push({
      feature: 'leveling',
      what: 'Level-up announcements',
      channelId: leveling.announcementChannel,
      use: 'level_up_announcements',
    });
  }
  needs.push(...welcomeNeeds(welcome));
  for (const menu of menus) {
    needs.push({
      feature: 'reaction-roles',
      what: `Role menu “${menu.title || menu.listKey || 'untitled'}”`,
      channelId: menu.channelId,
      use: 'reaction_panel',
    });
  }
  return { on, managed, needs };
}

/** The welcome's and the goodbye's channels, when each is on (the card needs Attach Files). */
function welcomeNeeds(welcome: WelcomeSettings): ChannelNeed[] {
  const needs: ChannelNeed[] = [];
  if (welcome.enabled) {
    const use = welcome.card ? 'welcome_cards' : 'welcome_messages';
    needs.push({ feature: 'welcome', what: 'Welcome messages', channelId: welcome.channel_id, use });
  }
  if (welcome.goodbye_enabled) {
    needs.push({
      feature: 'welcome',
      what: 'Goodbye messages',
      channelId: welcome.goodbye_channel_id,
      use: 'welcome_messages',
    });
  }
  return needs;
}

function line(id: SetupLine['id'], ok: boolean, parts: Omit<SetupLine, 'id' | 'status'>): SetupLine {
  return { id, status: ok ? 'ok' : 'todo', ...parts };
}

export class SetupChecklistService {
  constructor(
    private readonly db: Db,
    private readonly redis: Redis,
    private readonly discord: DiscordClient,
  ) {}

  async checklist(guildId: string): Promise<SetupChecklist> {
    const [dismissal] = await this.db
      .select()
      .from(guildSetupDismissals)
      .where(eq(guildSetupDismissals.guildId, guildId));
    const lines = await this.lines(guildId);
    return {
      lines,
      done: lines.every((l) => l.status === 'ok'),
      dismissed_at: dismissal ? dismissal.dismissedAt.toISOString() : null,
    };
  }

  async setDismissed(guildId: string, userId: string, dismissed: boolean): Promise<SetupChecklist> {
    if (dismissed) {
      await this.db
        .insert(guildSetupDismissals)
        .values({ guildId, dismissedBy: userId })
        .onConflictDoNothing({ target: guildSetupDismissals.guildId });
    } else {
      await this.db.delete(guildSetupDismissals).where(eq(guildSetupDismissals.guildId, guildId));
    }
    return this.checklist(guildId);
  }

  private async lines(guildId: string): Promise<SetupLine[]> {
    const present = await isBotInGuild(this.db, guildId);
    // The overview shows its own invite button when the bot is missing.
    const invite = null;
    if (!present) {
      return [
        line('bot_present', false, {
          title: 'Space Cadet is in the server',
          text: 'The bot is not in this server yet. Invite it, then come back here.',
          fix: invite,
          items: [],
        }),
      ];
    }
    const [use, side] = await Promise.all([serverUse(this.db, guildId), this.discordSide(guildId)]);
    return [
      line('bot_present', side.member !== null, {
        title: 'Space Cadet is in the server',
        text: side.member
          ? 'The bot is a member of the server.'
          : 'Discord does not list the bot in the server.',
        fix: side.member ? null : invite,
        items: [],
      }),
      this.roleOrder(guildId, side, use.managed),
      this.permissions(guildId, side, use.on),
      this.channels(guildId, side, use.needs, use.on),
      line('features_on', use.on.length > 0, {
        title: 'Features are turned on',
        text:
          use.on.length > 0
            ? `On: ${use.on.map((f) => FEATURE_NAMES[f]).join(', ')}.`
            : 'No feature is set up yet. Pick one on the dashboard: color roles, personality roles, leveling or role menus.',
        fix: use.on.length > 0 ? null : { label: 'Set up color roles', href: FEATURE_PAGES['color-roles'] },
        items: (['color-roles', 'personality-roles', 'leveling', 'reaction-roles'] as const).map(
          (f) => `${FEATURE_NAMES[f]}: ${use.on.includes(f) ? 'on' : 'off'}`,
        ),
      }),
    ];
  }

  private roleOrder(guildId: string, side: DiscordSide, managed: Set<string>): SetupLine {
    const held = new Set(side.member?.roles ?? []);
    const sorted = [...side.roles].filter((r) => r.id !== guildId).sort((a, b) => b.position - a.position);
    const botTop = sorted.find((r) => held.has(r.id)) ?? null;
    const order: SetupRoleOrderEntry[] = sorted.map((role) => {
      const managedByBot = managed.has(role.id);
      return {
        id: role.id,
        name: role.name,
        color: role.color,
        is_bot: role.id === botTop?.id,
        managed_by_bot: managedByBot,
        blocked: managedByBot && (botTop === null || role.position >= botTop.position),
      };
    });
    const blocked = order.filter((r) => r.blocked);
    const botName = botTop ? `“${botTop.name}”` : 'the bot’s role';
    return line('role_order', blocked.length === 0, {
      title: 'The bot’s role is above the roles it gives',
      text:
        blocked.length === 0
          ? managed.size === 0
            ? 'The bot gives no roles yet; keep its role above the ones it will give.'
            : `${botName} is above every role the bot gives.`
          : `Discord lets the bot give only roles below its highest role. In Server Settings → Roles, drag ${botName} above ${blocked.map((r) => `“${r.name}”`).join(', ')}, then save.`,
      fix:
        blocked.length === 0
          ? null
          : { label: 'Open Server Settings → Roles', href: `${SERVER_SETTINGS}${guildId}` },
      items: blocked.map((r) => `“${r.name}” is not below ${botName}`),
      role_order: order,
    });
  }

  private permissions(guildId: string, side: DiscordSide, on: BotFeature[]): SetupLine {
    const held = new Set([guildId, ...(side.member?.roles ?? [])]);
    let bits = 0n;
    for (const role of side.roles) if (held.has(role.id)) bits |= BigInt(role.permissions);
    const features =
      on.length > 0 ? on : (['color-roles', 'personality-roles', 'leveling', 'reaction-roles'] as const);
    const items = features.flatMap((feature) => {
      const missing = missingBotPermissions(bits, feature);
      return missing.length > 0 ? [`${FEATURE_NAMES[feature]}: ${missing.join(', ')}`] : [];
    });
    return line('permissions', items.length === 0, {
      title: 'The bot has the permissions its features need',
      text:
        items.length === 0
          ? 'Every feature in use has the permissions it needs.'
          : 'Give the bot’s role these permissions in Server Settings → Roles (or invite it again with them).',
      fix:
        items.length === 0
          ? null
          : { label: 'Open Server Settings → Roles', href: `${SERVER_SETTINGS}${guildId}` },
      items,
    });
  }

  private channels(guildId: string, side: DiscordSide, needs: ChannelNeed[], on: BotFeature[]): SetupLine {
    const items: string[] = [];
    let firstFix: string | null = null;
    for (const need of needs) {
      if (!on.includes(need.feature) && need.channelId === null) continue;
      const channel = need.channelId ? side.channels.find((c) => c.id === need.channelId) : undefined;
      let problem: string | null = null;
      if (!need.channelId) problem = `${need.what}: no channel chosen`;
      else if (!channel) problem = `${need.what}: the channel was deleted`;
      else if (side.member) {
        const bits = channelPermissionBits({
          guildId,
          userId: this.discord.botUserId,
          roles: side.roles,
          memberRoleIds: side.member.roles,
          overwrites: channel.permission_overwrites,
        });
        const missing = missingChannelPermissions(bits, need.use);
        if (missing.length > 0)
          problem = `${need.what}: the bot lacks ${missing.join(', ')} in #${channel.name ?? channel.id}`;
      }
      if (problem) {
        items.push(problem);
        firstFix ??= FEATURE_PAGES[need.feature];
      }
    }
    return line('channels', items.length === 0, {
      title: 'Each feature has a channel the bot can post in',
      text:
        items.length === 0
          ? 'Every channel a feature posts in is chosen and open to the bot.'
          : 'Pick a channel on the feature’s page, or allow the bot in that channel’s permissions on Discord.',
      fix: firstFix ? { label: 'Choose the channel', href: firstFix } : null,
      items,
    });
  }

  private async discordSide(guildId: string): Promise<DiscordSide> {
    const key = guildSetupCacheKey(guildId);
    const raw = await this.redis.get(key).catch(() => null);
    if (raw !== null) {
      try {
        const parsed = DiscordSide.safeParse(JSON.parse(raw));
        if (parsed.success) return parsed.data as DiscordSide;
      } catch {
        // A broken copy is read again from Discord.
      }
    }
    let side: DiscordSide;
    try {
      const [roles, channels, member] = await Promise.all([
        this.discord.getGuildRoles(guildId),
        this.discord.getGuildChannels(guildId),
        this.discord.getGuildMember(guildId, this.discord.botUserId),
      ]);
      side = { roles, channels, member };
    } catch (error) {
      throw discordFailure(error, 'the server’s roles and channels');
    }
    await this.redis.set(key, JSON.stringify(side), 'EX', CACHE_SEC).catch(() => undefined);
    return side;
  }
}
