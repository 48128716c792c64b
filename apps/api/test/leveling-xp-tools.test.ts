import { jobIdFor, routePath, routes, type XpImportResult } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { memberXp } from '@spacecadet/db';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  NO_MEMBER_XP_MESSAGE,
  notAMemberMessage,
  TOO_MANY_ROWS_MESSAGE,
} from '../src/routes/leveling-xp-tools.ts';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

let h: Harness;
let ada: string;
const station = GUILDS.station;
const memberPath = (userId: string) => routePath(routes.setMemberXp, { guildId: station, userId });
const importPath = (mode?: string) =>
  `${routePath(routes.importXp, { guildId: station })}${mode ? `?mode=${mode}` : ''}`;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

const applyJobId = jobIdFor('leveling.apply-rewards', station);
const applyJobState = () => h.app.services.queue.getJobState(applyJobId);

beforeEach(async () => {
  await h.database.db.delete(memberXp).where(eq(memberXp.guildId, station));
  await h.app.services.queue.remove(applyJobId);
});

async function stored(userId: string) {
  const [row] = await h.database.db
    .select()
    .from(memberXp)
    .where(and(eq(memberXp.guildId, station), eq(memberXp.userId, userId)));
  return row;
}

function upload(body: string, contentType: string, mode?: string) {
  return h.app.inject({
    method: 'POST',
    url: importPath(mode),
    headers: { authorization: ada, 'content-type': contentType },
    payload: body,
  });
}

/** A made-up member id (not in the sandbox; import takes any id, as MEE6's files hold leavers). */
const id = (n: number) => `4${String(n).padStart(17, '0')}`;

describe('PUT/DELETE leveling/members/:userId', () => {
  it('sets a member’s XP and level, marks rewards due and queues apply-rewards', async () => {
    const response = await h.app.inject({
      method: 'PUT',
      url: memberPath(USERS.nia),
      headers: { authorization: ada },
      payload: { xp: 1500 },
    });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toEqual({ user_id: USERS.nia, xp: 1500, level: levelForTotalXp(1500) });
    const row = await stored(USERS.nia);
    expect(row?.xp).toBe(1500);
    expect(row?.rewardsDueAt).not.toBeNull();
    expect(await applyJobState()).not.toBe('unknown');
  });

  it('refuses a user who is not a member, and bad XP, with sentences', async () => {
    const outsider = await h.app.inject({
      method: 'PUT',
      url: memberPath(USERS.rex),
      headers: { authorization: ada },
      payload: { xp: 10 },
    });
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().message).toBe(notAMemberMessage(USERS.rex));
    for (const xp of [-1, 1.5, 1e13, '12', null]) {
      const response = await h.app.inject({
        method: 'PUT',
        url: memberPath(USERS.nia),
        headers: { authorization: ada },
        payload: { xp },
      });
      expect(response.statusCode, String(xp)).toBe(400);
      expect(response.json().message).toMatch(/^xp must be/);
    }
    expect(await stored(USERS.nia)).toBeUndefined();
  });

  it('resets a member to 0 (unranked, rewards due) and queues apply-rewards; 404 without a row', async () => {
    const missing = await h.app.inject({
      method: 'DELETE',
      url: memberPath(USERS.nia),
      headers: { authorization: ada },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(NO_MEMBER_XP_MESSAGE);

    await h.database.db.insert(memberXp).values({ guildId: station, userId: USERS.nia, xp: 900, level: 4 });
    const reset = await h.app.inject({
      method: 'DELETE',
      url: memberPath(USERS.nia),
      headers: { authorization: ada },
    });
    expect(reset.statusCode, reset.body).toBe(204);
    const row = await stored(USERS.nia);
    expect(row).toMatchObject({ xp: 0, level: 0 });
    expect(row?.rewardsDueAt).not.toBeNull();
    expect(await applyJobState()).not.toBe('unknown');
    const board = await h.app.inject({
      url: routePath(routes.getLeaderboard, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(board.json().total).toBe(0);
  });
});

describe('POST leveling/import', () => {
  it('imports a CSV (BOM, CRLF, quoted fields, columns in any order), skipping bad rows with reasons', async () => {
    await h.database.db
      .insert(memberXp)
      .values({ guildId: station, userId: id(2), xp: 50, username: 'kept' });
    const csv =
      '\uFEFFusername,xp,level,user_id\r\n' +
      `"Smith, Ada",1500,9,${id(1)}\r\n` +
      `,200,1,${id(2)}\r\n` +
      `"He said ""hi""",10,0,${id(3)}\r\n` +
      'bad,10,0,not-an-id\r\n' +
      `neg,-5,0,${id(4)}\r\n` +
      `dup,30,0,${id(1)}\r\n`;
    const response = await upload(csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<XpImportResult>();
    expect(result).toMatchObject({ imported: 3, skipped: 3, job_id: applyJobId });
    expect(result.skipped_rows).toEqual([
      { row: 2, reason: `user_id ${id(1)} is listed again on row 7; the last row counts` },
      { row: 5, reason: 'user_id is not a Discord id' },
      { row: 6, reason: 'xp is not a whole number of at least 0' },
    ]);
    expect(await stored(id(1))).toMatchObject({ xp: 30, level: levelForTotalXp(30), username: 'dup' });
    expect(await stored(id(2))).toMatchObject({ xp: 200, username: 'kept' });
    expect(await stored(id(3))).toMatchObject({ xp: 10, username: 'He said "hi"' });
    expect((await stored(id(1)))?.rewardsDueAt).not.toBeNull();
    expect(await applyJobState()).not.toBe('unknown');
  });

  it('imports MEE6 JSON; mode=add adds to the stored XP, replace sets it', async () => {
    await h.database.db.insert(memberXp).values({ guildId: station, userId: id(1), xp: 100 });
    const json = JSON.stringify({
      players: [
        { id: id(1), xp: 400, username: 'ada', level: 3, detailed_xp: [1, 2, 3] },
        { id: Number(id(2).slice(0, 15)), xp: 5 },
        { id: id(3), xp: 'lots' },
        'not a player',
      ],
    });
    const added = await upload(json, 'application/json', 'add');
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({
      imported: 2,
      skipped: 2,
      skipped_rows: [
        { row: 3, reason: 'xp is not a whole number of at least 0' },
        { row: 4, reason: 'id is not a Discord id' },
      ],
    });
    expect(await stored(id(1))).toMatchObject({ xp: 500, level: levelForTotalXp(500), username: 'ada' });
    expect(await stored(id(2).slice(0, 15))).toMatchObject({ xp: 5 });

    const replaced = await upload(json, 'application/json', 'replace');
    expect(replaced.statusCode).toBe(200);
    expect(await stored(id(1))).toMatchObject({ xp: 400 });
  });

  it('refuses a header without user_id and xp, a bad mode, non-MEE6 JSON, empty bodies and other types', async () => {
    const header = await upload('id,points\n1,2\n', 'text/csv');
    expect(header.statusCode).toBe(400);
    expect(header.json().message).toMatch(/header naming the columns user_id and xp/);
    const mode = await upload(`user_id,xp\n${id(1)},5\n`, 'text/csv', 'merge');
    expect(mode.statusCode).toBe(400);
    expect(mode.json().message).toBe('mode must be replace or add');
    const shape = await upload('{"members": []}', 'application/json');
    expect(shape.statusCode).toBe(400);
    expect(shape.json().message).toMatch(/MEE6's leaderboard shape/);
    const empty = await upload('', 'text/csv');
    expect(empty.statusCode).toBe(400);
    const other = await upload('user_id,xp', 'text/plain');
    expect(other.statusCode).toBe(415);
    expect(other.json().message).toBe('Send the body as text/csv or application/json');
    expect(await stored(id(1))).toBeUndefined();
  });

  it('imports 100,000 rows in one go, and refuses 100,001', async () => {
    const lines = ['user_id,username,xp'];
    for (let n = 1; n <= 100_000; n++) lines.push(`${id(n)},member${n},${n * 7}`);
    const started = performance.now();
    const response = await upload(`${lines.join('\n')}\n`, 'text/csv');
    const elapsed = performance.now() - started;
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json()).toMatchObject({ imported: 100_000, skipped: 0 });
    console.info(`import of 100,000 CSV rows: ${Math.round(elapsed)} ms`);
    expect(await stored(id(99_999))).toMatchObject({ xp: 99_999 * 7, level: levelForTotalXp(99_999 * 7) });

    lines.push(`${id(100_001)},one-too-many,1`);
    const tooMany = await upload(lines.join('\n'), 'text/csv');
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe(TOO_MANY_ROWS_MESSAGE);
  }, 60_000);
});

describe('GET leveling/export', () => {
  it('answers every ranked member as CSV, quoted as RFC 4180 says and safe in a spreadsheet', async () => {
    await h.database.db.insert(memberXp).values([
      { guildId: station, userId: id(1), xp: 900, username: '=HYPERLINK("x")' },
      { guildId: station, userId: id(2), xp: 5000, username: 'Smith, "Ada"' },
      { guildId: station, userId: id(3), xp: 10, username: null },
      { guildId: station, userId: id(4), xp: 0, username: 'reset' },
      { guildId: station, userId: id(5), xp: 300, username: 'gone', leftAt: new Date() },
    ]);
    const response = await h.app.inject({
      url: routePath(routes.exportXp, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(response.headers['content-disposition']).toBe(`attachment; filename="leveling-${station}.csv"`);
    expect(response.body).toBe(
      [
        'user_id,username,xp,level,rank',
        `${id(2)},"Smith, ""Ada""",5000,${levelForTotalXp(5000)},1`,
        `${id(1)},"'=HYPERLINK(""x"")",900,${levelForTotalXp(900)},2`,
        `${id(3)},,10,0,3`,
        '',
      ].join('\r\n'),
    );
  });
});
