import {
  RANK_CARD_BACKGROUND_MAX_BYTES,
  RANK_CARD_BACKGROUND_NOT_IMAGE,
  RANK_CARD_BACKGROUND_TOO_LARGE,
  routePath,
  routes,
} from '@spacecadet/contract';
import { guildHistory, rankCardBackgrounds } from '@spacecadet/db/schema';
import { and, desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const station = GUILDS.station;
const path = routePath(routes.putRankCardBackground, { guildId: station });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});
beforeEach(async () => {
  await h.database.db.delete(rankCardBackgrounds).where(eq(rankCardBackgrounds.guildId, station));
});

/** A real 1×1 PNG. */
const PNG_1X1 = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
/** A JPEG's start: SOI, APP0, then a progressive frame header (SOF2) of 640×200, then some bytes. */
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x06, 0x4a, 0x46, 0x49, 0x46]),
  Buffer.from([0xff, 0xc2, 0x00, 0x11, 0x08, 0x00, 200, 640 >> 8, 640 & 0xff, 0x03]),
  Buffer.alloc(64, 7),
  Buffer.from([0xff, 0xd9]),
]);

const put = (payload: Buffer, contentType: string) =>
  h.app.inject({
    method: 'PUT',
    url: path,
    headers: { authorization: ada, 'content-type': contentType },
    payload,
  });
const stored = async () => {
  const [row] = await h.database.db
    .select()
    .from(rankCardBackgrounds)
    .where(eq(rankCardBackgrounds.guildId, station));
  return row;
};
const lastHistory = async () => {
  const [row] = await h.database.db
    .select()
    .from(guildHistory)
    .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, 'leveling.rank_card_background')))
    .orderBy(desc(guildHistory.id))
    .limit(1);
  return row;
};

describe('PUT/DELETE leveling/rank-card/background', () => {
  it('stores a PNG with its size read from the header, shows in GET leveling, and is in History', async () => {
    const response = await put(PNG_1X1, 'image/png');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ content_type: 'image/png', width: 1, height: 1, size: PNG_1X1.length });
    const row = await stored();
    expect(row).toMatchObject({ contentType: 'image/png', width: 1, height: 1 });
    expect(Buffer.from(row?.image ?? '', 'base64').equals(PNG_1X1)).toBe(true);
    const state = await h.app.inject({
      method: 'GET',
      url: routePath(routes.getLeveling, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(state.json().rank_card_background).toBe(true);
    expect((await lastHistory())?.summary).toBe('Set the rank card background (PNG, 1×1)');
  });

  it('stores a JPEG, replacing the PNG (the type is the one the bytes prove)', async () => {
    expect((await put(PNG_1X1, 'image/png')).statusCode).toBe(200);
    const response = await put(JPEG, 'image/png');
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      content_type: 'image/jpeg',
      width: 640,
      height: 200,
      size: JPEG.length,
    });
    expect(await stored()).toMatchObject({ contentType: 'image/jpeg', width: 640, height: 200 });
  });

  it('refuses an image over 1 MiB with 413 and anything but a PNG or JPEG with 400, storing nothing', async () => {
    const big = Buffer.concat([PNG_1X1, Buffer.alloc(RANK_CARD_BACKGROUND_MAX_BYTES)]);
    const tooLarge = await put(big, 'image/png');
    expect(tooLarge.statusCode).toBe(413);
    expect(tooLarge.json().message).toBe(RANK_CARD_BACKGROUND_TOO_LARGE);
    const gif = await put(Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;'), 'image/png');
    expect(gif.statusCode).toBe(400);
    expect(gif.json().message).toBe(RANK_CARD_BACKGROUND_NOT_IMAGE);
    const empty = await put(Buffer.alloc(0), 'image/jpeg');
    expect(empty.statusCode).toBe(400);
    const other = await put(PNG_1X1, 'image/gif');
    expect(other.statusCode).toBe(415);
    expect(other.json().message).toBe('Send the body as image/png or image/jpeg');
    expect(await stored()).toBeUndefined();
  });

  it('DELETE removes the background (204, twice is fine) and is in History', async () => {
    expect((await put(PNG_1X1, 'image/png')).statusCode).toBe(200);
    const del = () =>
      h.app.inject({
        method: 'DELETE',
        url: routePath(routes.deleteRankCardBackground, { guildId: station }),
        headers: { authorization: ada },
      });
    expect((await del()).statusCode).toBe(204);
    expect(await stored()).toBeUndefined();
    expect((await lastHistory())?.summary).toBe('Removed the rank card background');
    expect((await del()).statusCode).toBe(204);
  });
});
