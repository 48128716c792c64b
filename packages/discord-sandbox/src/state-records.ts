/**
 * The records the sandbox's world is made of (OAuth codes and grants, faults, interactions,
 * reactions, DM channels, the request log) and the shape of its `GET /_sandbox/state` dump.
 */
import type {
  APIApplicationCommand,
  APIGuildOnboarding,
  APIMessage,
  APIUser,
  GatewayDispatchEvents,
  InteractionType,
} from 'discord-api-types/v10';
import type { SandboxChannel, SandboxGuild } from './fixture.ts';

/** A nonce a message was created with: who sent it, and which message it made. */
export interface RememberedNonce {
  channel_id: string;
  message_id: string;
  at: number;
}

export interface AuthorizationCode {
  code: string;
  user_id: string;
  scopes: string[];
  redirect_uri: string | null;
  code_challenge: string | null;
  code_challenge_method: string | null;
  guild_id: string | null;
  permissions: string | null;
  expires_at: number;
}

export interface AccessGrant {
  access_token: string;
  refresh_token: string;
  user_id: string;
  scopes: string[];
  expires_at: number;
}

export interface Fault {
  method: string | null;
  path: string;
  status: number;
  remaining: number;
  retry_after: number;
}

export interface InteractionRecord {
  id: string;
  /** 3 for a component click or select, 2 for a slash command. */
  type: InteractionType;
  token: string;
  application_id: string;
  guild_id: string;
  channel_id: string;
  /** The message holding the component; empty for a slash command. */
  message_id: string;
  user_id: string;
  /** The component's custom_id; empty for a slash command. */
  custom_id: string;
  values: string[] | null;
  command_name: string | null;
  created_ms: number;
  /** The first callback body (types 4, 5, 6 or 7), null until the bot answers. */
  response: unknown;
  responded_ms: number | null;
  /** The message shown for the original response (ephemeral answers live only here). */
  original: APIMessage | null;
  followups: APIMessage[];
  edits: Array<{ at: string; target: string; body: unknown }>;
}

/** An uploaded file's bytes as the sandbox's CDN serves them. */
export interface StoredAttachment {
  bytes: Buffer;
  content_type: string;
}

/** One REST call the sandbox answered (bot or user token), oldest first in `requests`. */
export interface RestRequestRecord {
  /** Counts up from 1 for the life of the server (a reset does not restart it). */
  seq: number;
  method: string;
  /** After `/api/v10` (or `/api`), without the query string. */
  path: string;
  status: number;
  at: string;
}

/** A reaction's emoji as Discord shows it: `{id: null, name}` unicode, `{id, name, animated}` custom. */
export interface ReactionEmoji {
  id: string | null;
  name: string;
  animated?: boolean;
}

/** One emoji's reactions on a message: who reacted, oldest first. */
export interface ReactionRecord {
  emoji: ReactionEmoji;
  user_ids: string[];
}

/** A message in `GET /_sandbox/state`: each reaction also names its `user_ids`. */
export type DumpedReaction = NonNullable<APIMessage['reactions']>[number] & { user_ids: string[] };
export type DumpedMessage = Omit<APIMessage, 'reactions'> & { reactions?: DumpedReaction[] };

/** A DM channel between the bot and one user (`POST /users/@me/channels`). */
export interface SandboxDmChannel {
  id: string;
  recipient_id: string;
  last_message_id: string | null;
}

export interface SandboxDispatch {
  t: GatewayDispatchEvents;
  d: unknown;
  /** Null for events that every shard receives. */
  guildId: string | null;
}

export interface SandboxStateDump {
  application: { id: string; name: string };
  users: APIUser[];
  guilds: Array<
    Omit<SandboxGuild, 'channels'> & {
      channels: Array<SandboxChannel & { messages: DumpedMessage[] }>;
      onboarding: APIGuildOnboarding;
    }
  >;
  interactions: InteractionRecord[];
  commands: { global: APIApplicationCommand[]; guilds: Record<string, APIApplicationCommand[]> };
  gateway: { connected_sessions: number };
  /** The bot's DM channels with the messages posted there, oldest first. */
  dm_channels: Array<{ id: string; recipient_id: string; messages: DumpedMessage[] }>;
  /** Linked Roles: the application's metadata records and each user's connection by user id. */
  role_connections: {
    metadata: Array<{ type: number; key: string; name: string; description: string }>;
    users: Record<
      string,
      { platform_name: string | null; platform_username: string | null; metadata: Record<string, string> }
    >;
  };
}
