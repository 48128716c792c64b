import type { Image } from '@napi-rs/canvas';
import { accentColor, RANK_CARD_LAYOUT as L } from '@spacecadet/core';
import type { WelcomeGreetingRow } from '@spacecadet/db/schema';
import { drawCardBase, fitted, font, hex } from '@spacecadet/rank-card';
import type { RawFile } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { loadAvatar } from '../leveling/rank-card.ts';

/**
 * The welcome card: the member's avatar, name and member number, drawn with the rank card's
 * renderer (its canvas, fonts, frame and avatar ring, at its size), attached as a PNG.
 */
export const WELCOME_CARD_FILENAME = 'welcome-card.png';
const AVATAR_TIMEOUT_MS = 2_000;
const numbers = new Intl.NumberFormat('en-US');

export async function renderWelcomeCard(
  who: { username: string; memberNumber: number; server: string },
  avatar: Image | null,
  accent: number,
): Promise<Buffer> {
  const { canvas, ctx } = drawCardBase(avatar, who.username, accent);
  const width = L.bar.width;
  ctx.fillStyle = '#b5bac1';
  ctx.font = font(400, L.fontSize.statLabel);
  ctx.fillText(fitted(ctx, `WELCOME TO ${who.server.toUpperCase()}`, width), L.text.x, L.text.statsY);
  ctx.fillStyle = '#ffffff';
  ctx.font = font(700, L.fontSize.statValue);
  ctx.fillText(fitted(ctx, who.username, width), L.text.x, L.text.nameY + 40);
  ctx.fillStyle = hex(accent);
  ctx.font = font(700, L.fontSize.name);
  ctx.fillText(`Member #${numbers.format(who.memberNumber)}`, L.text.x, L.bar.y + 20);
  return canvas.encode('png');
}

/** The card of one greeting as an attachment, or null when it could not be drawn (logged). */
export async function welcomeCardFile(deps: WorkerDeps, row: WelcomeGreetingRow): Promise<RawFile | null> {
  try {
    const guild = deps.client.guilds.cache.get(row.guildId);
    const user = deps.client.users.cache.get(row.userId);
    const member = guild?.members.cache.get(row.userId);
    const avatar = await loadAvatar(
      deps.config.discordCdnBase,
      {
        userId: row.userId,
        guildId: row.guildId,
        userAvatar: user?.avatar ?? null,
        memberAvatar: member?.avatar ?? null,
      },
      AVATAR_TIMEOUT_MS,
    );
    const botRoles = guild?.members.me?.roles.cache.map((role) => ({
      color: role.colors.primaryColor,
      position: role.position,
    }));
    const png = await renderWelcomeCard(
      { username: row.username, memberNumber: row.memberCount, server: guild?.name ?? '' },
      avatar,
      accentColor(botRoles ?? []),
    );
    return { name: WELCOME_CARD_FILENAME, data: png, contentType: 'image/png' };
  } catch (error) {
    deps.logger.warn({ ...errorFields(error), guildId: row.guildId }, 'welcome card not drawn');
    return null;
  }
}
