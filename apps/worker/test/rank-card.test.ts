import { createCanvas, loadImage } from '@napi-rs/canvas';
import { DEFAULT_ACCENT_COLOR, RANK_CARD_LAYOUT, totalXpForLevel } from '@spacecadet/core';
import { levelingSettings, memberXp } from '@spacecadet/db/schema';
import { defaultFixture } from '@spacecadet/discord-sandbox';
import type { APIAttachment, APIMessage } from 'discord.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RANK_CARD_FILENAME } from '../src/features/leveling/rank-card.ts';
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
});
