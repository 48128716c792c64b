import type { VoiceSeat } from '@spacecadet/core';
import {
  type APIGuildMember,
  type APIVoiceState,
  GatewayDispatchEvents,
  type GatewayDispatchPayload,
} from 'discord.js';

/**
 * Who is in which voice channel in this process's guilds, kept from the gateway's raw packets:
 * GUILD_CREATE's `voice_states` (with its `members`, which Discord fills with everyone in
 * voice), then VOICE_STATE_UPDATE, member updates (roles, names) and leaves. discord.js' own
 * voice state cache is off (discord-client.ts) and would not say since when a member's state
 * held. Only the shards of this process send their guilds here, so a guild is counted by the
 * process that owns it. A guild received again (a new session, an outage ended) starts afresh:
 * time the worker did not see is not counted.
 */
export interface VoiceMember extends VoiceSeat {
  username: string | null;
  avatar: string | null;
}

interface VoiceGuild {
  afkChannelId: string | null;
  seats: Map<string, VoiceMember>;
}

type MemberFacts = Pick<VoiceMember, 'bot' | 'roleIds' | 'username' | 'avatar'>;

/** A member as GUILD_CREATE, VOICE_STATE_UPDATE and GUILD_MEMBER_UPDATE carry them. */
type MemberLike = Pick<APIGuildMember, 'roles' | 'user'> & { nick?: string | null | undefined };

function memberFacts(member: MemberLike | undefined, previous?: VoiceMember): MemberFacts {
  const user = member?.user;
  return {
    bot: user?.bot ?? previous?.bot ?? false,
    roleIds: member?.roles ?? previous?.roleIds ?? [],
    username: member?.nick ?? user?.global_name ?? user?.username ?? previous?.username ?? null,
    avatar: user ? user.avatar : (previous?.avatar ?? null),
  };
}

export class VoiceRoster {
  private readonly guilds = new Map<string, VoiceGuild>();

  constructor(private readonly now: () => number) {}

  /** Every guild with someone in voice: its AFK channel and its members in voice. */
  *occupied(): Generator<[guildId: string, afkChannelId: string | null, seats: VoiceMember[]]> {
    for (const [guildId, guild] of this.guilds) {
      if (guild.seats.size > 0) yield [guildId, guild.afkChannelId, [...guild.seats.values()]];
    }
  }

  /** How many members are in voice in this process's guilds. */
  get size(): number {
    let seats = 0;
    for (const guild of this.guilds.values()) seats += guild.seats.size;
    return seats;
  }

  handle(packet: GatewayDispatchPayload): void {
    switch (packet.t) {
      case GatewayDispatchEvents.GuildCreate: {
        const d = packet.d;
        if (d.unavailable) return;
        const members = new Map(d.members.map((m) => [m.user?.id, m]));
        const guild: VoiceGuild = { afkChannelId: d.afk_channel_id, seats: new Map() };
        this.guilds.set(d.id, guild);
        for (const state of d.voice_states) this.seat(guild, state, members.get(state.user_id), true);
        return;
      }
      case GatewayDispatchEvents.GuildUpdate: {
        const guild = this.guilds.get(packet.d.id);
        if (guild) guild.afkChannelId = packet.d.afk_channel_id;
        return;
      }
      case GatewayDispatchEvents.GuildDelete:
        this.guilds.delete(packet.d.id);
        return;
      case GatewayDispatchEvents.VoiceStateUpdate: {
        const guildId = packet.d.guild_id;
        const guild = guildId ? this.guilds.get(guildId) : undefined;
        if (guild) this.seat(guild, packet.d, packet.d.member, false);
        return;
      }
      case GatewayDispatchEvents.GuildMemberUpdate: {
        const seat = this.guilds.get(packet.d.guild_id)?.seats.get(packet.d.user.id);
        if (seat) Object.assign(seat, memberFacts(packet.d, seat));
        return;
      }
      case GatewayDispatchEvents.GuildMemberRemove:
        this.guilds.get(packet.d.guild_id)?.seats.delete(packet.d.user.id);
        return;
      default:
        return;
    }
  }

  /** Seats (or unseats) a member; their time starts again when their channel or mutes change. */
  private seat(
    guild: VoiceGuild,
    state: Omit<APIVoiceState, 'guild_id'>,
    member: APIGuildMember | undefined,
    fresh: boolean,
  ): void {
    if (!state.channel_id) {
      guild.seats.delete(state.user_id);
      return;
    }
    const previous = fresh ? undefined : guild.seats.get(state.user_id);
    const muted = state.self_mute || state.mute || state.suppress;
    const deafened = state.self_deaf || state.deaf;
    const same =
      previous !== undefined &&
      previous.channelId === state.channel_id &&
      previous.muted === muted &&
      previous.deafened === deafened;
    guild.seats.set(state.user_id, {
      userId: state.user_id,
      channelId: state.channel_id,
      muted,
      deafened,
      since: same ? previous.since : this.now(),
      ...memberFacts(member, previous),
    });
  }
}
