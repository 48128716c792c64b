import { createCanvas, loadImage } from '@napi-rs/canvas';
import { DEFAULT_ACCENT_COLOR, RANK_CARD_LAYOUT, totalXpForLevel } from '@spacecadet/core';
import { levelingSettings, memberXp, rankCardBackgrounds } from '@spacecadet/db/schema';
import { defaultFixture } from '@spacecadet/discord-sandbox';
import type { APIAttachment, APIMessage } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANK_CARD_FILENAME } from '../src/features/leveling/rank-card.ts';
import { RANK_COLOR_NO_XP } from '../src/features/leveling/rank-color.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import { control, type Harness, SANDBOX_IDS, STATION, startHarness, waitFor } from './helpers.ts';

const { ada, mo, nia } = SANDBOX_IDS.users;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

describe('/rank card', () => {
  let harness: Harness;
  let worker: RunningWorker;

  const rank = async (userId: string, member?: string) => {
    const outcome = await control(harness.sandbox).command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: userId,
      name: 'rank',
      ...(member ? { options: { member } } : {}),
    });
    expect(outcome.responded).toBe(true);
    return outcome.message as APIMessage | null;
  };

  /** The card's pixels, fetched from the attachment's URL as a Discord client would. */
  const pixels = async (attachment: APIAttachment) => {
    const res = await fetch(attachment.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
    expect(bytes.length).toBe(attachment.size);
    const image = await loadImage(bytes);
    const canvas = createCanvas(image.width, image.height);
    const ctx = canvas.getContext('2d');
    ctx.drawImage(image, 0, 0);
    return (x: number, y: number) => {
      const [r = 0, g = 0, b = 0] = ctx.getImageData(x, y, 1, 1).data;
      return (r << 16) | (g << 8) | b;
    };
  };
  /** A point inside the filled part of the progress bar (always filled when progress > 0). */
  const barPoint = [
    RANK_CARD_LAYOUT.bar.x + RANK_CARD_LAYOUT.bar.height / 2,
    RANK_CARD_LAYOUT.bar.y + RANK_CARD_LAYOUT.bar.height / 2,
  ] as const;
  /** Near the top of the avatar circle, away from any letter. */
  const avatarPoint = [
    RANK_CARD_LAYOUT.avatar.x + RANK_CARD_LAYOUT.avatar.size / 2,
    RANK_CARD_LAYOUT.avatar.y + 14,
  ] as const;

  beforeAll(async () => {
    // The bot's managed role without a color, so the card starts on the blurple fallback.
    const fixture = defaultFixture();
    for (const guild of fixture.guilds) {
      for (const role of guild.roles) {
        if (role.tags?.bot_id !== SANDBOX_IDS.app) continue;
        role.color = 0;
        role.colors = { primary_color: 0, secondary_color: null, tertiary_color: null };
      }
    }
    harness = await startHarness(fixture);
    worker = await startWorker(harness.config());
    await worker.gateway;
    await waitFor('/rank to be registered', () => {
      const { commands } = control(harness.sandbox).state();
      return [...commands.global, ...Object.values(commands.guilds).flat()].some((c) => c.name === 'rank');
    });
    const db = harness.database.db;
    await db.insert(levelingSettings).values({ guildId: STATION, enabled: true });
    await db.insert(memberXp).values([
      { guildId: STATION, userId: mo, level: 2, xp: totalXpForLevel(2) + 40 },
      { guildId: STATION, userId: ada, level: 5, xp: totalXpForLevel(5) + 10 },
    ]);
  });
  afterAll(async () => {
    await worker?.close();
    await harness?.close();
  });

  it('answers with rank-card.png: a PNG of sensible size, the text kept, a description for screen readers', async () => {
    const message = await rank(mo);
    expect(message?.content).toBe(
      `**Rank #2**: <@${mo}>\nLevel 2 · 40 / 220 XP to level 3 · ${totalXpForLevel(2) + 40} XP in total`,
    );
    expect(message?.attachments).toHaveLength(1);
    const [card] = message?.attachments ?? [];
    if (!card) throw new Error('no attachment');
    expect(card).toMatchObject({
      filename: RANK_CARD_FILENAME,
      content_type: 'image/png',
      width: RANK_CARD_LAYOUT.width,
      height: RANK_CARD_LAYOUT.height,
    });
    expect(card.size).toBeGreaterThan(1000);
    expect(card.description).toMatch(/^Rank card of .+: rank #2, level 2, 40 of 220 XP to level 3/);
    const at = await pixels(card);
    // No colored role for the bot: the accent is Discord blurple.
    expect(at(...barPoint)).toBe(DEFAULT_ACCENT_COLOR);
    // The avatar came from the sandbox's CDN (the drawn default would be the accent there).
    expect(at(...avatarPoint)).not.toBe(DEFAULT_ACCENT_COLOR);
    // The state lists the attachment too.
    const general = control(harness.sandbox)
      .state()
      .guilds.find((g) => g.id === STATION)
      ?.channels.find((c) => c.id === SANDBOX_IDS.channels.general);
    const posted = general?.messages.find((m) => m.id === message?.id);
    expect(posted?.attachments.map((a) => [a.filename, a.content_type, a.size])).toEqual([
      [RANK_CARD_FILENAME, 'image/png', card.size],
    ]);
  });

  it("paints the card in the color of the bot's highest colored role (below its uncolored managed role)", async () => {
    const api = control(harness.sandbox);
    const role = await api.botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, {
      name: 'Cadet Teal',
      color: 0x12a4b6,
    });
    await api.botRest('PUT', `/guilds/${STATION}/members/${SANDBOX_IDS.app}/roles/${role.id}`);
    await waitFor('the worker to see its new role', () =>
      worker.client.guilds.cache.get(STATION)?.members.me?.roles.cache.has(role.id),
    );
    const message = await rank(nia, ada);
    const [card] = message?.attachments ?? [];
    if (!card) throw new Error('no attachment');
    expect(card.description).toMatch(/rank #1, level 5/);
    const at = await pixels(card);
    expect(at(...barPoint)).toBe(0x12a4b6);
  });

  it('keeps the text answer, without a card, for a member with no XP', async () => {
    const message = await rank(nia);
    expect(message?.content).toMatch(/^You have no XP yet/);
    expect(message?.attachments).toEqual([]);
  });

  const rankColor = async (userId: string, hex?: string) => {
    const outcome = await control(harness.sandbox).command({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.general,
      user_id: userId,
      name: 'rank-color',
      ...(hex ? { options: { hex } } : {}),
    });
    expect(outcome.responded).toBe(true);
    const data = (outcome as { response?: { data?: { content?: string; flags?: number } } }).response?.data;
    expect(data?.flags).toBe(64);
    return data?.content;
  };
  const barColor = async (userId: string, member?: string) => {
    const [card] = (await rank(userId, member))?.attachments ?? [];
    if (!card) throw new Error('no attachment');
    return (await pixels(card))(...barPoint);
  };
  const storedAccent = async (userId: string) => {
    const [row] = await harness.database.db
      .select({ cardAccent: memberXp.cardAccent })
      .from(memberXp)
      .where(and(eq(memberXp.guildId, STATION), eq(memberXp.userId, userId)));
    return row?.cardAccent;
  };

  it("uses the member's own accent (/rank-color) over the server's, and the server's over the bot's role color", async () => {
    await harness.database.db
      .update(levelingSettings)
      .set({ rankCardAccent: '#22aa44' })
      .where(eq(levelingSettings.guildId, STATION));
    // The worker's settings cache follows the change (NOTIFY): wait until the card shows it.
    let seen = 0;
    await waitFor('the server accent on the card', async () => {
      seen = await barColor(mo);
      return seen === 0x22aa44;
    });
    expect(seen).toBe(0x22aa44);

    expect(await rankColor(mo, '#ff0080')).toBe('Your rank card’s accent is now #FF0080.');
    expect(await storedAccent(mo)).toBe('#FF0080');
    expect(await barColor(mo)).toBe(0xff0080);
    // Someone else's card keeps the server's accent.
    expect(await barColor(nia, ada)).toBe(0x22aa44);

    expect(await rankColor(mo, 'purple')).toBe('The accent must be a color like #5865F2');
    expect(await storedAccent(mo)).toBe('#FF0080');
    expect(await rankColor(nia, '#123456')).toBe(RANK_COLOR_NO_XP);

    expect(await rankColor(mo)).toBe('Your rank card uses the server’s accent again.');
    expect(await storedAccent(mo)).toBeNull();
    expect(await barColor(mo)).toBe(0x22aa44);
  });

  it("draws the server's background under the text, darkened, and follows a new or removed one", async () => {
    const solid = async (color: string) => {
      const canvas = createCanvas(64, 32);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = color;
      ctx.fillRect(0, 0, 64, 32);
      return (await canvas.encode('png')).toString('base64');
    };
    const db = harness.database.db;
    const setBackground = async (color: string, updatedAt: Date) => {
      const values = {
        guildId: STATION,
        contentType: 'image/png',
        image: await solid(color),
        width: 64,
        height: 32,
        updatedAt,
      };
      await db
        .insert(rankCardBackgrounds)
        .values(values)
        .onConflictDoUpdate({ target: rankCardBackgrounds.guildId, set: values });
    };
    // A spot of the panel with no text: right of the total, below the bar.
    const blank = [800, 250] as const;
    const blankColor = async () => {
      const [card] = (await rank(mo))?.attachments ?? [];
      if (!card) throw new Error('no attachment');
      const c = (await pixels(card))(...blank);
      return [(c >> 16) & 0xff, (c >> 8) & 0xff, c & 0xff] as const;
    };
    expect(await blankColor()).toEqual([0x2b, 0x2d, 0x31]);

    await setBackground('#ff0000', new Date('2026-01-01T00:00:00Z'));
    const [r, g, b] = await blankColor();
    // Red, darkened by the shade (255 × 0.45 ≈ 115) so white text stays legible.
    expect(r).toBeGreaterThan(100);
    expect(r).toBeLessThan(130);
    expect(g).toBeLessThan(10);
    expect(b).toBeLessThan(10);
    // The accent still paints the bar over the background.
    expect(await barColor(mo)).toBe(0x22aa44);

    await setBackground('#0000ff', new Date('2026-01-02T00:00:00Z'));
    const [r2, , b2] = await blankColor();
    expect(r2).toBeLessThan(10);
    expect(b2).toBeGreaterThan(100);

    await db.delete(rankCardBackgrounds).where(eq(rankCardBackgrounds.guildId, STATION));
    expect(await blankColor()).toEqual([0x2b, 0x2d, 0x31]);
  });
});
