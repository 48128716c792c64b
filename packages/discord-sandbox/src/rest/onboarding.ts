import {
  type APIGuildOnboarding,
  type APIGuildOnboardingPrompt,
  type APIGuildOnboardingPromptOption,
  type GuildOnboardingMode,
  type GuildOnboardingPromptType,
  PermissionFlagsBits,
} from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from '../context.ts';
import type { SandboxGuild } from '../fixture.ts';
import { meetsRequirements, syncPromptRoleFlags } from '../onboarding.ts';
import { guildPermissions } from '../permissions.ts';
import { discordError, type Issue, invalidFormBody, missingPermissions } from './discord-errors.ts';
import { botGuild } from './guilds.ts';
import { requireBot } from './http.ts';

/*
 * What Discord documents (discord-api-docs, docs/resources/guild.mdx, Modify Guild Onboarding):
 * MANAGE_GUILD and MANAGE_ROLES, and the enable requirements (see ../onboarding.ts); and in
 * docs/topics/opcodes-and-status-codes.md the codes 350000 "Cannot enable onboarding,
 * requirements are not met" and 350001 "Cannot update onboarding while below requirements".
 * A prompt `id` is required even for a new prompt (discord-api-docs issue #6320, still open;
 * discord.js invents one for that reason); option ids are optional.
 * What no doc we found gives: counts and lengths. 15 prompts is what a third-party client states
 * (the composure crate: "at most 15"); 50 options a prompt and the lengths (prompt title 1-100,
 * option title 1-50, description up to 100) are assumptions, so change them if Discord says
 * otherwise. Response bodies always carry an option `emoji` object, all-null when none was set:
 * discord.js reads `emoji.id` without a check.
 */
export const MAX_PROMPTS = 15;
export const MAX_OPTIONS = 50;
const PROMPT_TITLE = [1, 100] as const;
const OPTION_TITLE = [1, 50] as const;
const OPTION_DESCRIPTION_MAX = 100;

type Path = Array<string | number>;
type Fields = Record<string, unknown>;

const isObject = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);

function isSnowflake(v: unknown): v is string | number {
  if (typeof v !== 'string' && !(typeof v === 'number' && Number.isSafeInteger(v))) return false;
  const text = String(v);
  return /^\d{1,20}$/.test(text) && BigInt(text) < 1n << 64n;
}

/** Discord's body checks, collected the way its `errors` tree reports them. */
class Checker {
  readonly issues: Issue[] = [];

  constructor(private readonly guild: SandboxGuild) {}

  add(path: Path, code: string, message: string): void {
    this.issues.push({ path, code, message });
  }

  text(path: Path, value: unknown, [min, max]: readonly [number, number]): string {
    if (value === undefined || value === null) this.add(path, 'BASE_TYPE_REQUIRED', 'This field is required');
    else if (typeof value !== 'string') this.add(path, 'BASE_TYPE_STRING', 'Must be a string.');
    else if (value.length < min || value.length > max) {
      this.add(path, 'BASE_TYPE_BAD_LENGTH', `Must be between ${min} and ${max} in length.`);
    } else return value;
    return '';
  }

  flag(path: Path, value: unknown): boolean {
    if (value === undefined || value === null) return false;
    if (typeof value !== 'boolean') this.add(path, 'BOOLEAN_TYPE_COERCE', 'Must be either true or false.');
    return value === true;
  }

  choice(path: Path, value: unknown): 0 | 1 {
    if (value === undefined || value === null || value === 0) return 0;
    if (value !== 1) this.add(path, 'BASE_TYPE_CHOICES', 'Value must be one of {0, 1}.');
    return 1;
  }

  snowflake(path: Path, value: unknown): string | null {
    if (isSnowflake(value)) return String(value);
    this.add(path, 'NUMBER_TYPE_COERCE', `Value "${String(value)}" is not snowflake.`);
    return null;
  }

  list(path: Path, value: unknown): unknown[] {
    if (value === undefined || value === null) return [];
    if (Array.isArray(value)) return value;
    this.add(path, 'BASE_TYPE_ARRAY', 'Must be an array.');
    return [];
  }

  /**
   * Ids that must name something in this guild. The top-level 50035 is what clients see;
   * Discord's sub-code here is not documented, so these codes are the sandbox's own.
   */
  refs(path: Path, value: unknown, kind: 'role' | 'channel'): string[] {
    const ids: string[] = [];
    this.list(path, value).forEach((raw, k) => {
      const id = this.snowflake([...path, k], raw);
      if (id === null) return;
      const role = this.guild.roles.find((r) => r.id === id);
      const valid =
        kind === 'channel'
          ? this.guild.channels.some((c) => c.id === id)
          : role !== undefined && role.id !== this.guild.id && !role.managed;
      if (valid) ids.push(id);
      else if (kind === 'role') this.add([...path, k], 'ROLE_INVALID', `Role "${id}" cannot be used here.`);
      else this.add([...path, k], 'CHANNEL_INVALID', `Channel "${id}" is not in this guild.`);
    });
    return ids;
  }
}

/** Hands out ids: the client's when it sent a snowflake not used yet in this body, else fresh ones. */
function idPicker(fresh: () => string): (sent: string | null) => string {
  const used = new Set<string>();
  return (sent) => {
    const id = sent !== null && !used.has(sent) ? sent : fresh();
    used.add(id);
    return id;
  };
}

function parseOption(
  check: Checker,
  at: Path,
  raw: unknown,
  pickId: (sent: string | null) => string,
): APIGuildOnboardingPromptOption {
  const o = isObject(raw) ? raw : {};
  if (!isObject(raw)) check.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
  const sentId = o.id === undefined || o.id === null ? null : check.snowflake([...at, 'id'], o.id);
  const title = check.text([...at, 'title'], o.title, OPTION_TITLE);
  let description: string | null = null;
  if (typeof o.description === 'string') {
    description = o.description;
    if (description.length > OPTION_DESCRIPTION_MAX) {
      check.add(
        [...at, 'description'],
        'BASE_TYPE_MAX_LENGTH',
        `Must be ${OPTION_DESCRIPTION_MAX} or fewer in length.`,
      );
    }
  } else if (o.description !== undefined && o.description !== null) {
    check.add([...at, 'description'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  // Requests name the emoji in three fields; answers carry an emoji object (docs: "When creating
  // or updating a prompt option, the emoji_id, emoji_name, and emoji_animated fields must be used").
  const emojiId =
    o.emoji_id === undefined || o.emoji_id === null ? null : check.snowflake([...at, 'emoji_id'], o.emoji_id);
  if (o.emoji_name !== undefined && o.emoji_name !== null && typeof o.emoji_name !== 'string') {
    check.add([...at, 'emoji_name'], 'BASE_TYPE_STRING', 'Must be a string.');
  }
  const emojiName = typeof o.emoji_name === 'string' && o.emoji_name !== '' ? o.emoji_name : null;
  return {
    id: pickId(sentId),
    title,
    // An option without a description is answered with "" (a string in Discord's OpenAPI).
    description: description ?? '',
    emoji: {
      id: emojiId,
      name: emojiName,
      animated: check.flag([...at, 'emoji_animated'], o.emoji_animated),
    },
    role_ids: check.refs([...at, 'role_ids'], o.role_ids, 'role'),
    channel_ids: check.refs([...at, 'channel_ids'], o.channel_ids, 'channel'),
  };
}

function parsePrompt(
  check: Checker,
  at: Path,
  raw: unknown,
  pickId: (sent: string | null) => string,
): APIGuildOnboardingPrompt {
  const p = isObject(raw) ? raw : {};
  if (!isObject(raw)) check.add(at, 'MODEL_TYPE_CONVERT', 'Only dictionaries may be used in a ModelType');
  let sentId: string | null = null;
  if (p.id === undefined || p.id === null)
    check.add([...at, 'id'], 'BASE_TYPE_REQUIRED', 'This field is required');
  else sentId = check.snowflake([...at, 'id'], p.id);
  const id = pickId(sentId);
  const title = check.text([...at, 'title'], p.title, PROMPT_TITLE);
  const rawOptions = check.list([...at, 'options'], p.options);
  if (rawOptions.length < 1 || rawOptions.length > MAX_OPTIONS) {
    check.add([...at, 'options'], 'BASE_TYPE_BAD_LENGTH', `Must be between 1 and ${MAX_OPTIONS} in length.`);
  }
  return {
    id,
    title,
    options: rawOptions.map((o, j) => parseOption(check, [...at, 'options', j], o, pickId)),
    single_select: check.flag([...at, 'single_select'], p.single_select),
    required: check.flag([...at, 'required'], p.required),
    in_onboarding: check.flag([...at, 'in_onboarding'], p.in_onboarding),
    type: check.choice([...at, 'type'], p.type) as GuildOnboardingPromptType,
  };
}

/** The onboarding a PUT body asks for (absent fields keep their value), or Discord's form errors. */
export function parseOnboardingBody(
  guild: SandboxGuild,
  current: APIGuildOnboarding,
  body: unknown,
  fresh: () => string,
): { onboarding: APIGuildOnboarding } | { issues: Issue[] } {
  const check = new Checker(guild);
  const b = isObject(body) ? body : {};
  const next: APIGuildOnboarding = structuredClone(current);
  if (b.prompts !== undefined && b.prompts !== null) {
    const raw = check.list(['prompts'], b.prompts);
    if (raw.length > MAX_PROMPTS) {
      check.add(['prompts'], 'BASE_TYPE_MAX_LENGTH', `Must be ${MAX_PROMPTS} or fewer in length.`);
    }
    const pickId = idPicker(fresh);
    next.prompts = raw.map((p, i) => parsePrompt(check, ['prompts', i], p, pickId));
  }
  if (b.default_channel_ids !== undefined && b.default_channel_ids !== null) {
    next.default_channel_ids = check.refs(['default_channel_ids'], b.default_channel_ids, 'channel');
  }
  if (b.enabled !== undefined && b.enabled !== null) next.enabled = check.flag(['enabled'], b.enabled);
  if (b.mode !== undefined && b.mode !== null)
    next.mode = check.choice(['mode'], b.mode) as GuildOnboardingMode;
  return check.issues.length > 0 ? { issues: check.issues } : { onboarding: next };
}

type GuildParams = { guildId: string };

/** `GET` / `PUT /guilds/:id/onboarding`. Discord sends no gateway event for either in its API docs. */
export function registerOnboardingRoutes(api: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;
  const has = (guild: SandboxGuild, bits: bigint) =>
    (guildPermissions(guild, state.application.id) & bits) === bits;

  api.get<{ Params: GuildParams }>('/guilds/:guildId/onboarding', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    const onboarding = state.onboardingOf(guild.id);
    // The user API docs (discord-userdoccers, Get Guild Onboarding): MANAGE_GUILD while
    // onboarding is disabled, membership alone once it is enabled.
    if (!onboarding.enabled && !has(guild, PermissionFlagsBits.ManageGuild)) return missingPermissions(reply);
    return onboarding;
  });

  api.put<{ Params: GuildParams; Body: unknown }>('/guilds/:guildId/onboarding', async (req, reply) => {
    if (!requireBot(ctx, req, reply)) return reply;
    const guild = botGuild(ctx, req.params.guildId, reply);
    if (!guild) return reply;
    if (!has(guild, PermissionFlagsBits.ManageGuild | PermissionFlagsBits.ManageRoles)) {
      return missingPermissions(reply);
    }
    const current = state.onboardingOf(guild.id);
    const parsed = parseOnboardingBody(guild, current, req.body, () => state.snowflake());
    if ('issues' in parsed) {
      return invalidFormBody(reply, parsed.issues);
    }
    const next = parsed.onboarding;
    if (next.enabled && !meetsRequirements(guild, next)) {
      return current.enabled
        ? discordError(reply, 400, 350001, 'Cannot update onboarding while below requirements')
        : discordError(reply, 400, 350000, 'Cannot enable onboarding, requirements are not met');
    }
    state.onboarding.set(guild.id, next);
    syncPromptRoleFlags(guild, next);
    return next;
  });
}
