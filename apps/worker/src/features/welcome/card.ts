import { createCanvas, type Image } from '@napi-rs/canvas';
import { accentColor, RANK_CARD_LAYOUT as L } from '@spacecadet/core';
import type { WelcomeGreetingRow } from '@spacecadet/db/schema';
import type { RawFile } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { fitted, font, hex, loadAvatar, registerFonts, roundedRect } from '../leveling/rank-card.ts';

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
  registerFonts();
  const canvas = createCanvas(L.width, L.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#1e1f22';
  roundedRect(ctx, 0, 0, L.width, L.height, 24);
  ctx.fill();
  ctx.fillStyle = '#2b2d31';
  roundedRect(ctx, L.padding / 2, L.padding / 2, L.width - L.padding, L.height - L.padding, 18);
  ctx.fill();
  const { x, y, size } = L.avatar;
  ctx.save();
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  ctx.clip();
  if (avatar) ctx.drawImage(avatar, x, y, size, size);
  else {
    ctx.fillStyle = hex(accent);
    ctx.fillRect(x, y, size, size);
  }
  ctx.restore();
  ctx.strokeStyle = hex(accent);
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2 + 3, 0, Math.PI * 2);
  ctx.stroke();
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
