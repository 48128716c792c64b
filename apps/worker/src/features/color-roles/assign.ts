import { colorPickLockKey, lastColorPickKey } from '@spacecadet/contract';
import type { StoredColor } from '@spacecadet/db/queries/color-roles';
import { PermissionFlagsBits, Routes } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, isDiscordError } from '../../discord-rest.ts';
import { type EphemeralAnswer, interactionAgeMs } from '../../interactions/respond.ts';
import type { PanelInteraction } from '../../interactions/types.ts';
import { type LockedRun, withLockWhenFree } from '../../jobs/guild-lock.ts';
import { paletteRoleIds } from './palette.ts';
import { clearColorWarnings, recordColorWarning, roleAboveBotWarning } from './warnings.ts';

export const ROLE_ABOVE_BOT_MESSAGE =
  "I can't give you that role: my role must be above it in Server Settings → Roles. Ask an admin.";
export const MISSING_MANAGE_ROLES_MESSAGE =
  "I can't give you that role: I need the Manage Roles permission. Ask an admin.";
export const ROLE_MISSING_MESSAGE = "That color's role is missing. Ask an admin to run Generate Roles.";
export const COLOR_BUSY_MESSAGE = 'Still changing your color from your last click. Try again in a moment.';
const REASON = 'Space Cadet: color pick';
/** The lock is renewed while its holder runs; this is how long a crashed holder keeps it. */
const PICK_LOCK_TTL_MS = 15_000;
/**
 * A click waits for the member's previous clicks until this long after it was made, then answers
 * COLOR_BUSY_MESSAGE: so even a member hammering the panel gets every final answer (not just a
 * deferral) within Discord's 3 seconds. It ends before the 1.5 s deferral so that answer is the
 * first callback, which is never rate-limited; a deferred answer is an edit, and discord.js sends
 * edits under the bot's global 50 requests per second (200 of them would take 4 s).
 */
const PICK_LOCK_WAIT_UNTIL_MS = 1_000;

/**
 * Gives the member `choice`'s role and takes away every other colour role of the palette, so
 * a member holds one colour at a time. A role the bot cannot manage gets the member a clear
 * answer and the admin a dashboard warning instead of a silent failure.
 */
export async function assignColorRole(
  interaction: PanelInteraction,
  deps: WorkerDeps,
  palette: readonly StoredColor[],
  choice: { name: string; roleId: string | null },
): Promise<EphemeralAnswer> {
  const { redis } = deps;
  const guildId = interaction.guildId;
  const roleId = choice.roleId;
  if (!guildId || !roleId) return { content: ROLE_MISSING_MESSAGE };

  const guild = interaction.inCachedGuild() ? interaction.guild : null;
  if (guild) {
    const role = guild.roles.cache.get(roleId);
    const me = guild.members.me;
    if (!role) return { content: ROLE_MISSING_MESSAGE };
    if (me && !me.permissions.has(PermissionFlagsBits.ManageRoles)) {
      return { content: MISSING_MANAGE_ROLES_MESSAGE };
    }
    if (me && role.comparePositionTo(me.roles.highest) >= 0) {
      await recordColorWarning(redis, guildId, roleId, roleAboveBotWarning(role.name));
      return { content: ROLE_ABOVE_BOT_MESSAGE };
    }
  }

  const userId = interaction.user.id;
  // Counted from the click, not from now: time spent reaching us and loading the palette counts.
  const waitMs = Math.min(
    PICK_LOCK_WAIT_UNTIL_MS,
    Math.max(0, PICK_LOCK_WAIT_UNTIL_MS - interactionAgeMs(interaction)),
  );
  const deadline = Date.now() + waitMs;
  // One colour change per member at a time: two quick clicks would otherwise each add their
  // colour and remove only the colours the member had before, leaving two colour roles.
  const lockKey = colorPickLockKey(guildId, userId);
  const lock = await afterEarlierClicks(lockKey, deadline, (remainingMs) =>
    withLockWhenFree(redis, lockKey, PICK_LOCK_TTL_MS, remainingMs, () =>
      swapColorRole(deps, guildId, userId, roleId, paletteRoleIds(palette), payloadRoleIds(interaction)),
    ),
  );
  if (!lock.acquired) return { content: COLOR_BUSY_MESSAGE };
  if (lock.value === 'missing-permissions') {
    const name = guild?.roles.cache.get(roleId)?.name ?? choice.name;
    await recordColorWarning(redis, guildId, roleId, roleAboveBotWarning(name));
    return { content: ROLE_ABOVE_BOT_MESSAGE };
  }
  if (lock.value === 'unknown-role') return { content: ROLE_MISSING_MESSAGE };
  await clearColorWarnings(redis, guildId, [roleId]);
  return { content: `You now have the **${choice.name}** color.` };
}

/**
 * The clicks of each member waiting in this process, chained in arrival order. Only the first of
 * them polls the Redis lock (which also holds across processes); without this line every waiting
 * click of a member hammering the panel would poll Redis 40 times a second.
 */
const waitingClicks = new Map<string, Promise<void>>();

/**
 * Runs `attempt` once the member's earlier clicks in this process are done, or gives up with
 * `{ acquired: false }` at `deadline`. `attempt` gets the time left until the deadline.
 */
async function afterEarlierClicks<T>(
  key: string,
  deadline: number,
  attempt: (remainingMs: number) => Promise<LockedRun<T>>,
): Promise<LockedRun<T>> {
  const earlier = waitingClicks.get(key) ?? Promise.resolve();
  let finished = () => {};
  const mine = new Promise<void>((resolve) => {
    finished = resolve;
  });
  const line = earlier.then(() => mine);
  waitingClicks.set(key, line);
  let timer: NodeJS.Timeout | undefined;
  try {
    const myTurn = await Promise.race([
      earlier.then(() => true),
      new Promise<false>((resolve) => {
        timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
      }),
    ]);
    if (!myTurn) return { acquired: false };
    return await attempt(Math.max(0, deadline - Date.now()));
  } finally {
    clearTimeout(timer);
    finished();
    if (waitingClicks.get(key) === line) waitingClicks.delete(key);
  }
}

/** The member's roles as Discord sent them with the click. */
function payloadRoleIds(interaction: PanelInteraction): readonly string[] {
  const member = interaction.member;
  if (!member) return [];
  return Array.isArray(member.roles) ? member.roles : [...member.roles.cache.keys()];
}

/** Covers clicks that waited on the lock: their payload predates the swap recorded here. */
const LAST_COLOR_TTL_SECONDS = 5 * 60;

/**
 * Gives the role and removes every other palette role the member may hold, under the member's
 * lock. What they hold is the click's payload plus the colour the previous swap gave them
 * (recorded in Redis): a click that waited on the lock carries roles from before that swap.
 * No GET of the member, because every REST call counts against the bot's 50 requests per
 * second and a click costs only the PUT, and a DELETE when the member had another colour.
 * Removing a role the member no longer holds is a no-op for Discord.
 */
async function swapColorRole(
  deps: WorkerDeps,
  guildId: string,
  userId: string,
  roleId: string,
  colorRoles: ReadonlySet<string>,
  payloadRoles: readonly string[],
): Promise<'done' | 'missing-permissions' | 'unknown-role'> {
  const { client, redis } = deps;
  const lastKey = lastColorPickKey(guildId, userId);
  try {
    const last = await redis.get(lastKey);
    const held = new Set(payloadRoles);
    if (last !== null) held.add(last);
    // The payload is current unless a swap happened since; then only that swap's colour is known.
    const alreadyHeld = payloadRoles.includes(roleId) && (last === null || last === roleId);
    if (!alreadyHeld) {
      await client.rest.put(Routes.guildMemberRole(guildId, userId, roleId), { reason: REASON });
    }
    for (const other of held) {
      if (other !== roleId && colorRoles.has(other)) {
        await client.rest.delete(Routes.guildMemberRole(guildId, userId, other), { reason: REASON });
      }
    }
    await redis.set(lastKey, roleId, 'EX', LAST_COLOR_TTL_SECONDS);
    return 'done';
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.MissingPermissions)) return 'missing-permissions';
    if (isDiscordError(error, DiscordCodes.UnknownRole)) return 'unknown-role';
    throw error;
  }
}
