/**
 * Members in voice channels: joining, moving, muting themselves and leaving, each a
 * VOICE_STATE_UPDATE as Discord sends it (only to sessions with the GuildVoiceStates intent,
 * see gateway-session.ts). A guild's voice states also come in its GUILD_CREATE (payloads.ts).
 */
import { randomBytes } from 'node:crypto';
import {
  ChannelType,
  GatewayDispatchEvents,
  type GatewayVoiceStateUpdateDispatchData,
} from 'discord-api-types/v10';
import type { SandboxGuild, SandboxVoiceState } from './fixture.ts';
import { apiMember } from './payloads.ts';
import type { SandboxState } from './state.ts';

/** What a member does in voice: `channelId` null leaves; the mutes keep their value when absent. */
export interface VoiceChange {
  userId: string;
  channelId: string | null;
  selfMute?: boolean;
  selfDeaf?: boolean;
}

/** Whether the channel is one members talk in (voice or stage), as Discord requires to join. */
export function isVoiceChannel(type: number): boolean {
  return type === ChannelType.GuildVoice || type === ChannelType.GuildStageVoice;
}

/** The VOICE_STATE_UPDATE payload: the state with its guild and the member (Discord sends both). */
function voiceStatePayload(
  state: SandboxState,
  guild: SandboxGuild,
  voice: SandboxVoiceState | (Omit<SandboxVoiceState, 'channel_id'> & { channel_id: null }),
): GatewayVoiceStateUpdateDispatchData {
  const member = guild.members.find((m) => m.user_id === voice.user_id);
  return {
    guild_id: guild.id,
    ...structuredClone(voice),
    ...(member ? { member: apiMember(state, member) } : {}),
  };
}

/**
 * Applies a member's voice change and dispatches it; answers the member's voice state after it
 * (null once they left). A change that changes nothing (leaving while not in voice) sends nothing.
 */
export function changeVoiceState(
  state: SandboxState,
  guild: SandboxGuild,
  change: VoiceChange,
): SandboxVoiceState | null {
  guild.voice_states ??= [];
  const states = guild.voice_states;
  const index = states.findIndex((v) => v.user_id === change.userId);
  const current = index >= 0 ? states[index] : undefined;
  if (change.channelId === null) {
    if (!current) return null;
    states.splice(index, 1);
    state.dispatch(
      GatewayDispatchEvents.VoiceStateUpdate,
      voiceStatePayload(state, guild, { ...current, channel_id: null }),
      guild.id,
    );
    return null;
  }
  const next: SandboxVoiceState = {
    user_id: change.userId,
    channel_id: change.channelId,
    // Discord gives each voice connection its own session id.
    session_id: current?.session_id ?? randomBytes(16).toString('hex'),
    mute: current?.mute ?? false,
    deaf: current?.deaf ?? false,
    self_mute: change.selfMute ?? current?.self_mute ?? false,
    self_deaf: change.selfDeaf ?? current?.self_deaf ?? false,
    self_video: false,
    suppress: false,
    request_to_speak_timestamp: null,
  };
  // Deafening yourself mutes you too, as in Discord's client.
  if (next.self_deaf) next.self_mute = true;
  if (current) states[index] = next;
  else states.push(next);
  state.dispatch(GatewayDispatchEvents.VoiceStateUpdate, voiceStatePayload(state, guild, next), guild.id);
  return next;
}
