/**
 * The gateway's IDENTIFY: Discord's checks on its token, shard and intents (each refusal a close
 * code), and the READY it answers with.
 */
import {
  type ApplicationFlags,
  GatewayCloseCodes,
  type GatewayReadyDispatchData,
} from 'discord-api-types/v10';
import { applicationFlags } from './application.ts';
import { PRIVILEGED_INTENTS, type SandboxGuild } from './fixture.ts';
import type { SandboxState } from './state.ts';

export interface IdentifyData {
  token?: string;
  intents?: number;
  shard?: [number, number];
}
export interface ResumeData {
  token?: string;
  session_id?: string;
  seq?: number;
}

/** Whether a gateway token (with or without `Bot `) is the bot's current token. */
export function botTokenOk(state: SandboxState, token: unknown): boolean {
  const bare = typeof token === 'string' ? token.replace(/^Bot /, '') : '';
  return bare === state.application.bot_token;
}

/**
 * Discord's checks on an IDENTIFY, in its order: a wrong token (4004), a bad shard (4010),
 * missing or bad intents (4013), a privileged intent the application has not enabled (4014),
 * each a close code and reason; else the shard and intents the session gets.
 */
export function checkIdentify(
  state: SandboxState,
  d: IdentifyData | undefined,
): { code: GatewayCloseCodes; reason: string } | { shard: [number, number]; intents: number } {
  if (!botTokenOk(state, d?.token)) {
    return { code: GatewayCloseCodes.AuthenticationFailed, reason: 'Authentication failed' };
  }
  const shard: [number, number] = d?.shard ?? [0, 1];
  if (shard[1] < 1 || shard[0] < 0 || shard[0] >= shard[1]) {
    return { code: GatewayCloseCodes.InvalidShard, reason: 'Invalid shard' };
  }
  if (typeof d?.intents !== 'number' || d.intents < 0) {
    return { code: GatewayCloseCodes.InvalidIntents, reason: 'Invalid intent(s)' };
  }
  // A privileged intent the application has not enabled in the Developer Portal.
  if ((d.intents & PRIVILEGED_INTENTS & ~state.application.privileged_intents) !== 0) {
    return { code: GatewayCloseCodes.DisallowedIntents, reason: 'Disallowed intent(s).' };
  }
  return { shard, intents: d.intents };
}

/** READY for a new session on `shard`: the bot user, its guilds on that shard (unavailable until GUILD_CREATE). */
export function readyPayload(
  state: SandboxState,
  sessionId: string,
  resumeUrl: string,
  shard: [number, number],
  guilds: SandboxGuild[],
): GatewayReadyDispatchData {
  return {
    v: 10,
    user: { ...state.botUser, verified: true, mfa_enabled: false },
    guilds: guilds.map((g) => ({ id: g.id, unavailable: true })),
    session_id: sessionId,
    resume_gateway_url: resumeUrl,
    shard,
    application: {
      id: state.application.id,
      flags: applicationFlags(state.application) as ApplicationFlags,
      flags_new: String(applicationFlags(state.application)),
    },
  };
}
