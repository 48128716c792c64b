import { setTimeout as sleep } from 'node:timers/promises';
import { WELCOME_RAID_BATCH_MAX, WELCOME_RAID_BATCH_S, type WelcomeSettings } from '@spacecadet/contract';
import { renderWelcomeMessage, type WelcomeMember, type WelcomeTemplateKind } from '@spacecadet/core';
import { messageNonce } from '@spacecadet/core/message-nonce';
import { getWelcomeSettings } from '@spacecadet/db/queries/welcome';
import {
  claimGreeting,
  claimRaidBatch,
  finishGreetings,
  owedGreetings,
  pruneGreetings,
  raidGreetingsOwed,
  skipGreeting,
} from '@spacecadet/db/queries/welcome-greetings';
import type { WelcomeGreetingRow } from '@spacecadet/db/schema';
import { ChannelType, type RawFile } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { DiscordCodes, discordApi, isDiscordError, postMessageOnce } from '../../discord-rest.ts';
import type { JobContext } from '../../jobs/types.ts';
import { welcomeCardFile } from './card.ts';
import { WELCOME_FRESH_MS } from './events.ts';

const TEXT_CHANNELS = new Set<number>([ChannelType.GuildText, ChannelType.GuildAnnouncement]);

/**
 * Whether a stored channel id is a text channel of this guild (trust no id: the bot is in many
 * servers and Discord's channel routes are not scoped by guild).
 */
async function isTextChannelOf(deps: WorkerDeps, guildId: string, channelId: string): Promise<boolean> {
  const cached = deps.client.channels.cache.get(channelId);
  if (cached) return 'guildId' in cached && cached.guildId === guildId && TEXT_CHANNELS.has(cached.type);
  try {
    const channel = await discordApi(deps.client).channels.get(channelId);
    return 'guild_id' in channel && channel.guild_id === guildId && TEXT_CHANNELS.has(channel.type);
  } catch (error) {
    if (isDiscordError(error, DiscordCodes.UnknownChannel, DiscordCodes.MissingAccess)) return false;
    throw error;
  }
}

/** One job run's check of channels: each asked of Discord once per run, not once per greeting. */
type ChannelCheck = (channelId: string) => Promise<boolean>;

function channelCheck(deps: WorkerDeps, guildId: string): ChannelCheck {
  const known = new Map<string, Promise<boolean>>();
  return (channelId) => {
    let answer = known.get(channelId);
    if (!answer) {
      answer = isTextChannelOf(deps, guildId, channelId);
      known.set(channelId, answer);
    }
    return answer;
  };
}

const member = (row: WelcomeGreetingRow): WelcomeMember => ({
  userId: row.userId,
  username: row.username,
  answers: row.answers,
});

function render(deps: WorkerDeps, kind: WelcomeTemplateKind, template: string, rows: WelcomeGreetingRow[]) {
  const guildId = rows[0]?.guildId ?? '';
  return renderWelcomeMessage(kind, template, rows.map(member), {
    server: deps.client.guilds.cache.get(guildId)?.name ?? '',
    memberCount: Math.max(0, ...rows.map((row) => row.memberCount)),
  });
}

/**
 * Posts under a nonce in a channel of the guild; null when the bot may not post there (logged,
 * the greeting is done: an admin's channel setting is not worth retrying for hours).
 */
async function postIn(
  deps: WorkerDeps,
  guildId: string,
  isText: ChannelCheck,
  channelId: string | null,
  body: ReturnType<typeof renderWelcomeMessage> & { files?: RawFile[] },
  nonce: string,
): Promise<string | null> {
  // No channel set: the greeting goes by DM only.
  if (!channelId) return null;
  if (!(await isText(channelId))) {
    deps.logger.warn(
      { guildId, channelId },
      'welcome not posted: the channel is not a text channel of the server',
    );
    return null;
  }
  try {
    return (await postMessageOnce(deps.client, channelId, body, nonce)).id;
  } catch (error) {
    if (
      !isDiscordError(
        error,
        DiscordCodes.MissingAccess,
        DiscordCodes.MissingPermissions,
        DiscordCodes.UnknownChannel,
      )
    ) {
      throw error;
    }
    deps.logger.warn({ guildId, channelId }, 'welcome not posted: the bot cannot post in that channel');
    return null;
  }
}

/** The DM greeting; a member who does not accept DMs from the bot (403 50007) is not an error. */
async function sendDm(deps: WorkerDeps, settings: WelcomeSettings, row: WelcomeGreetingRow, nonce: string) {
  try {
    const dm = await discordApi(deps.client).users.createDM(row.userId);
    await postMessageOnce(deps.client, dm.id, render(deps, 'dm', settings.dm_message, [row]), nonce);
  } catch (error) {
    if (!isDiscordError(error, DiscordCodes.CannotSendMessagesToThisUser, DiscordCodes.InvalidRecipients)) {
      throw error;
    }
    deps.logger.info(
      { guildId: row.guildId, userId: row.userId },
      'welcome DM not sent: the member refuses DMs',
    );
  }
}

/** A day: records older than this are no use against a replayed event or a retried post. */
const KEEP_DONE_MS = 24 * 3600_000;
/** Members who have not finished Onboarding after this long are not greeted when they do. */
const KEEP_AWAITING_MS = 30 * 24 * 3600_000;

function prune(deps: WorkerDeps, guildId: string) {
  const now = Date.now();
  return pruneGreetings(deps.db, guildId, new Date(now - KEEP_DONE_MS), new Date(now - KEEP_AWAITING_MS));
}

/** Why an owed greeting is not posted any more, or null to post it. */
function dropReason(settings: WelcomeSettings, row: WelcomeGreetingRow): string | null {
  if (row.kind === 'goodbye' ? !settings.goodbye_enabled : !settings.enabled) return 'turned off';
  // The worker was down: a greeting this late is not a live one. (A raid's greetings are never
  // late: their pace is ours, one batch per WELCOME_RAID_BATCH_S, and none of the burst is lost.)
  if (!row.raid && row.batch === null && Date.now() - row.heardAt.getTime() > WELCOME_FRESH_MS) {
    return 'too late';
  }
  return null;
}

/**
 * `welcome.greet` (and `welcome.goodbye`): posts every greeting (or goodbye) the guild owes, one
 * per member, oldest first. Each is claimed under its nonce before its post, and finished with
 * the message id after: a run that died halfway is run again and posts under the same nonce,
 * so Discord answers the message already made; a finished one is never posted again.
 */
export async function greetOwed(context: JobContext) {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const kind = context.name === 'welcome.goodbye' ? 'goodbye' : 'welcome';
  const settings = await getWelcomeSettings(deps.db, guildId);
  const isText = channelCheck(deps, guildId);
  let posted = 0;
  for (const row of await owedGreetings(deps.db, guildId, kind)) {
    const reason = dropReason(settings, row);
    if (reason) {
      await skipGreeting(deps.db, row, reason);
      continue;
    }
    const nonce = messageNonce(kind, guildId, row.userId, row.joinedAt.toISOString());
    await claimGreeting(deps.db, row, nonce);
    let messageId: string | null;
    if (kind === 'goodbye') {
      const body = render(deps, 'goodbye', settings.goodbye_message, [row]);
      messageId = await postIn(deps, guildId, isText, settings.goodbye_channel_id, body, nonce);
    } else {
      const body = render(deps, 'welcome', settings.message, [row]);
      const card = settings.card ? await welcomeCardFile(deps, row) : null;
      messageId = await postIn(
        deps,
        guildId,
        isText,
        settings.channel_id,
        card ? { ...body, files: [card] } : body,
        nonce,
      );
      if (settings.dm_enabled) await sendDm(deps, settings, row, messageNonce('welcome-dm', nonce));
    }
    await finishGreetings(deps.db, guildId, nonce, messageId);
    posted += 1;
  }
  return {
    ok: true,
    summary: `Posted ${posted} ${kind === 'goodbye' ? 'goodbye' : 'welcome'}${posted === 1 ? '' : 's'}.`,
  };
}

/**
 * `welcome.raid-batch`: the greetings of a raid's burst, merged into one message every
 * WELCOME_RAID_BATCH_S naming up to WELCOME_RAID_BATCH_MAX members, until none is owed. Each
 * batch is claimed in Postgres (FOR UPDATE SKIP LOCKED) under a nonce before its post, so a run
 * that died halfway posts the same batch again under the same nonce (one message), and nobody
 * is named twice or left out. No DM and no card during a raid: one message for the burst.
 */
export async function greetRaid(context: JobContext) {
  const { deps } = context;
  const guildId = context.payload.guild_id;
  const isText = channelCheck(deps, guildId);
  let batches = 0;
  for (;;) {
    const settings = await getWelcomeSettings(deps.db, guildId);
    const claimed = await claimRaidBatch(deps.db, guildId, WELCOME_RAID_BATCH_MAX, (first) =>
      messageNonce('welcome-raid', guildId, first.userId, first.joinedAt.toISOString()),
    );
    if (!claimed) break;
    if (!settings.enabled) {
      for (const row of claimed.rows) await skipGreeting(deps.db, row, 'turned off');
      continue;
    }
    const body = render(deps, 'welcome', settings.message, claimed.rows);
    const messageId = await postIn(deps, guildId, isText, settings.channel_id, body, claimed.batch);
    await finishGreetings(deps.db, guildId, claimed.batch, messageId);
    batches += 1;
    if ((await raidGreetingsOwed(deps.db, guildId)) === 0) break;
    // One merged message per WELCOME_RAID_BATCH_S: the rest of the burst gathers meanwhile.
    await sleep(WELCOME_RAID_BATCH_S * 1000);
  }
  await prune(deps, guildId);
  return { ok: true, summary: `Posted ${batches} merged welcome${batches === 1 ? '' : 's'}.` };
}
