import {
  RANK_CARD_BACKGROUND_MAX_BYTES,
  RANK_CARD_BACKGROUND_NOT_IMAGE,
  RANK_CARD_BACKGROUND_TOO_LARGE,
  type RankCardBackground,
} from '@spacecadet/contract';
import { cardAccent, imageHeader, parseAccentHex, sampleRankCardModel } from '@spacecadet/core';
import type { Db } from '@spacecadet/db';
import {
  deleteRankCardBackground,
  loadLevelingSettings,
  loadRankCardBackground,
  saveRankCardBackground,
} from '@spacecadet/db/queries/leveling';
import { renderRankCard } from '@spacecadet/rank-card';
import { ApiError } from '../../errors.ts';

/**
 * The server's rank card background: the uploaded bytes are checked (size, then PNG/JPEG magic
 * bytes and a readable size in pixels from the header) before they are stored, base64, for the
 * worker to draw. The content type stored is the one the bytes prove, not the one claimed.
 */
export async function setRankCardBackground(
  db: Db,
  guildId: string,
  body: unknown,
): Promise<RankCardBackground> {
  const bytes = body instanceof Uint8Array ? body : null;
  if (!bytes || bytes.length === 0) throw new ApiError('invalid_input', RANK_CARD_BACKGROUND_NOT_IMAGE);
  if (bytes.length > RANK_CARD_BACKGROUND_MAX_BYTES) {
    throw new ApiError('payload_too_large', RANK_CARD_BACKGROUND_TOO_LARGE);
  }
  const header = imageHeader(bytes);
  if (!header) throw new ApiError('invalid_input', RANK_CARD_BACKGROUND_NOT_IMAGE);
  await saveRankCardBackground(db, {
    guildId,
    contentType: header.contentType,
    image: Buffer.from(bytes).toString('base64'),
    width: header.width,
    height: header.height,
  });
  return { content_type: header.contentType, width: header.width, height: header.height, size: bytes.length };
}

/** Removes the background; whether there was one. */
export async function removeRankCardBackground(db: Db, guildId: string): Promise<boolean> {
  return deleteRankCardBackground(db, guildId);
}

/**
 * The dashboard's preview: the card drawn by the renderer the worker uses, for a sample member
 * named `username`, on the stored background, in the accent `/rank` picks (core `cardAccent`):
 * `accent` (the form's unsaved choice) else the server's, else the bot's highest colored role.
 */
export async function rankCardPreview(
  db: Db,
  guildId: string,
  username: string,
  accent: string | undefined,
  botRoles: () => Promise<readonly { color: number; position: number }[]>,
): Promise<Buffer> {
  const [settings, background] = await Promise.all([
    loadLevelingSettings(db, guildId),
    loadRankCardBackground(db, guildId),
  ]);
  const server = accent ?? settings.rankCardAccent;
  const color = cardAccent({
    member: null,
    server,
    botRoles: parseAccentHex(server) === null ? await botRoles() : [],
  });
  return renderRankCard(sampleRankCardModel(username), {
    accent: color,
    background: background ? Buffer.from(background.image, 'base64') : null,
  });
}
