export type { SandboxContext } from './context.ts';
export { defaultFixture } from './default-fixture.ts';
export {
  BOT_ROLE_PERMISSIONS,
  EVERYONE_PERMISSIONS,
  makeBotRole,
  makeEmoji,
  makeRole,
  makeUser,
  type SandboxApplication,
  type SandboxChannel,
  type SandboxFixture,
  type SandboxGuild,
  type SandboxMember,
  type SandboxVoiceState,
} from './fixture.ts';
export { SANDBOX_BOT_TOKEN, SANDBOX_CLIENT_SECRET, SANDBOX_IDS } from './ids.ts';
export { type Sandbox, type SandboxOptions, startSandbox } from './server.ts';
export type { InteractionRecord, RestRequestRecord, SandboxStateDump } from './state.ts';
