import { jobIdFor, MEMBER_XP_MAX, routePath, routes, type XpImportResult } from '@spacecadet/contract';
import { levelForTotalXp } from '@spacecadet/core';
import { memberXp } from '@spacecadet/db';
import { writeXpBatches } from '@spacecadet/db/queries/member-xp';
import { guildHistory } from '@spacecadet/db/schema';
import { SANDBOX_IDS } from '@spacecadet/discord-sandbox';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  botMemberMessage,
  botReason,
  MEMBER_LIST_REFUSED_MESSAGE,
  NO_MEMBER_XP_MESSAGE,
  notAMemberMessage,
  notAMemberReason,
  TOO_MANY_ROWS_MESSAGE,
} from '../src/services/leveling/xp-tools.ts';
import { appWithRedisDown, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

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
const applyJobState = () => h.app.services.queue.forShard(0).getJobState(applyJobId);

beforeEach(async () => {
  await h.database.db.delete(memberXp).where(eq(memberXp.guildId, station));
  await h.app.services.queue.forShard(0).remove(applyJobId);
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

/** A made-up id (no sandbox user has it): a row of it is not a member's. */
const id = (n: number) => `4${String(n).padStart(17, '0')}`;

let madeUsers = 0;
/** Makes `count` new users of the sandbox and adds them to Sandbox Station, in id order. */
async function newMembers(
  count: number,
  options: { bot?: boolean } = {},
): Promise<{ id: string; username: string }[]> {
  const control = async (method: string, path: string, body?: object) => {
    const response = await fetch(`${h.sandbox.url}/_sandbox${path}`, {
      method,
      ...(body ? { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) } : {}),
    });
    if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
    return response.json() as Promise<{ id: string }>;
  };
  const made: { id: string; username: string }[] = [];
  for (let start = 0; start < count; start += 50) {
    const part = Array.from({ length: Math.min(50, count - start) }, async () => {
      const username = `member_${++madeUsers}`;
      const { id: userId } = await control('POST', '/users', { username, bot: options.bot ?? false });
      await control('PUT', `/guilds/${station}/members/${userId}`);
      return { id: userId, username };
    });
    made.push(...(await Promise.all(part)));
  }
  return made.sort((a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1));
}

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

  it('refuses a user who is not a member, a bot, and bad XP, with sentences', async () => {
    const setXp = (userId: string, xp: unknown) =>
      h.app.inject({
        method: 'PUT',
        url: memberPath(userId),
        headers: { authorization: ada },
        payload: { xp },
      });
    const outsider = await setXp(USERS.rex, 10);
    expect(outsider.statusCode).toBe(400);
    expect(outsider.json().message).toBe(notAMemberMessage(USERS.rex));
    const bot = await setXp(SANDBOX_IDS.bot, 10);
    expect(bot.statusCode).toBe(400);
    expect(bot.json().message).toBe(botMemberMessage(SANDBOX_IDS.bot));
    expect(await stored(SANDBOX_IDS.bot)).toBeUndefined();
    for (const xp of [-1, 1.5, 1e13, '12', null]) {
      const response = await setXp(USERS.nia, xp);
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
    const [m1, m2, m3, m4] = await newMembers(4);
    if (!m1 || !m2 || !m3 || !m4) throw new Error('no members');
    await h.database.db
      .insert(memberXp)
      .values({ guildId: station, userId: m2.id, xp: 50, username: 'kept' });
    const csv =
      '\uFEFFusername,xp,level,user_id\r\n' +
      `"Smith, Ada",1500,9,${m1.id}\r\n` +
      `,200,1,${m2.id}\r\n` +
      `"He said ""hi""",10,0,${m3.id}\r\n` +
      'bad,10,0,not-an-id\r\n' +
      `neg,-5,0,${m4.id}\r\n` +
      `dup,30,0,${m1.id}\r\n`;
    const response = await upload(csv, 'text/csv');
    expect(response.statusCode, response.body).toBe(200);
    const result = response.json<XpImportResult>();
    expect(result).toMatchObject({ imported: 3, skipped: 3, job_id: applyJobId });
    expect(result.skipped_rows).toEqual([
      { row: 2, reason: `user_id ${m1.id} is listed again on row 7; the last row counts` },
      { row: 5, reason: 'user_id is not a Discord id' },
      { row: 6, reason: 'xp is not a whole number of at least 0' },
    ]);
    // Names are the server's, not the file's.
    expect(await stored(m1.id)).toMatchObject({ xp: 30, level: levelForTotalXp(30), username: m1.username });
    expect(await stored(m2.id)).toMatchObject({ xp: 200, username: m2.username });
    expect(await stored(m3.id)).toMatchObject({ xp: 10, username: m3.username });
    expect((await stored(m1.id))?.rewardsDueAt).not.toBeNull();
    expect(await applyJobState()).not.toBe('unknown');
  });

  it('imports MEE6 JSON; mode=add adds to the stored XP, replace sets it', async () => {
    const [m1, m2] = await newMembers(2);
    if (!m1 || !m2) throw new Error('no members');
    await h.database.db.insert(memberXp).values({ guildId: station, userId: m1.id, xp: 100 });
    const json = JSON.stringify({
      players: [
        { id: m1.id, xp: 400, username: 'ada', level: 3, detailed_xp: [1, 2, 3] },
        { id: m2.id, xp: 5 },
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
    expect(await stored(m1.id)).toMatchObject({
      xp: 500,
      level: levelForTotalXp(500),
      username: m1.username,
    });
    expect(await stored(m2.id)).toMatchObject({ xp: 5 });

    const replaced = await upload(json, 'application/json', 'replace');
    expect(replaced.statusCode).toBe(200);
    expect(await stored(m1.id)).toMatchObject({ xp: 400 });
  });

  it('skips the rows of non-members and bots (this bot too) with the reason, and keeps the server’s names', async () => {
    const [otherBot] = await newMembers(1, { bot: true });
    if (!otherBot) throw new Error('no bot');
    // A numeric MEE6 id (a safe integer) that names no member is a non-member's row, like a leaver's.
    const numeric = Number(id(2).slice(0, 15));
    const json = JSON.stringify({
      players: [
        { id: USERS.nia, xp: 300, username: 'nia' },
        { id: SANDBOX_IDS.bot, xp: 99_999, username: 'Space Cadet' },
        { id: USERS.rex, xp: 50_000, username: 'rex' },
        { id: numeric, xp: 5 },
        { id: otherBot.id, xp: 8_000, username: 'helper' },
      ],
    });
    const response = await upload(json, 'application/json', 'replace');
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      imported: 1,
      skipped: 4,
      skipped_rows: [
        { row: 2, reason: botReason('id', SANDBOX_IDS.bot) },
        { row: 3, reason: notAMemberReason('id', USERS.rex) },
        { row: 4, reason: notAMemberReason('id', String(numeric)) },
        { row: 5, reason: botReason('id', otherBot.id) },
      ],
    });
    // Nia's name on the server is "Nia" (her display name), not the file's "nia".
    expect(await stored(USERS.nia)).toMatchObject({ xp: 300, username: 'Nia' });
    for (const skipped of [SANDBOX_IDS.bot, USERS.rex, String(numeric), otherBot.id]) {
      expect(await stored(skipped)).toBeUndefined();
    }
  });

  it('checks membership in the member list for a big file, and one by one when Discord refuses the list', async () => {
    const members = await newMembers(30);
    const csv = (ids: readonly string[]) => `user_id,xp\n${ids.map((userId) => `${userId},7`).join('\n')}\n`;
    const rows = [...members.map((m) => m.id), USERS.rex, id(1)];
    const listed = await upload(csv(rows), 'text/csv', 'replace');
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toMatchObject({ imported: 30, skipped: 2 });

    // No Server Members intent: Discord answers the list with 403 Missing Access.
    const refuseList = (count: number) =>
      fetch(`${h.sandbox.url}/_sandbox/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ method: 'GET', path: `/guilds/${station}/members`, status: 403, count }),
      });
    await refuseList(1);
    const oneByOne = await upload(csv(rows), 'text/csv', 'add');
    expect(oneByOne.statusCode, oneByOne.body).toBe(200);
    expect(oneByOne.json()).toMatchObject({ imported: 30, skipped: 2 });
    expect(await stored(members[0]?.id ?? '')).toMatchObject({ xp: 14 });

    await refuseList(1);
    const many = Array.from({ length: 101 }, (_, n) => id(n + 1));
    const refused = await upload(csv(many), 'text/csv', 'add');
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().message).toBe(MEMBER_LIST_REFUSED_MESSAGE);
    await fetch(`${h.sandbox.url}/_sandbox/faults`, { method: 'DELETE' });
  });

  it('mode=add stops at the most XP a member can have, as setting XP does', async () => {
    await h.database.db
      .insert(memberXp)
      .values({ guildId: station, userId: USERS.nia, xp: MEMBER_XP_MAX - 10 });
    const added = await upload(`user_id,xp\n${USERS.nia},${MEMBER_XP_MAX}\n`, 'text/csv', 'add');
    expect(added.statusCode, added.body).toBe(200);
    expect(await stored(USERS.nia)).toMatchObject({
      xp: MEMBER_XP_MAX,
      level: levelForTotalXp(MEMBER_XP_MAX),
    });
  });

  it('refuses a header without user_id and xp, a bad mode, non-MEE6 JSON, empty bodies and other types', async () => {
    const header = await upload('id,points\n1,2\n', 'text/csv');
    expect(header.statusCode).toBe(400);
    expect(header.json().message).toMatch(/header naming the columns user_id and xp/);
    const mode = await upload(`user_id,xp\n${USERS.nia},5\n`, 'text/csv', 'merge');
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
    expect(await stored(USERS.nia)).toBeUndefined();
  });

  it('reads 100,000 rows in one go (the members’ imported, the rest skipped), and refuses 100,001', async () => {
    const members = await newMembers(200);
    const memberIds = new Set(members.map((m) => m.id));
    const lines = ['user_id,username,xp'];
    for (const m of members) lines.push(`${m.id},file-name,${7_000}`);
    for (let n = 1; lines.length <= 100_000; n++) lines.push(`${id(n)},member${n},${n * 7}`);
    const started = performance.now();
    const response = await upload(`${lines.join('\n')}\n`, 'text/csv');
    const elapsed = performance.now() - started;
    expect(response.statusCode, response.body.slice(0, 300)).toBe(200);
    expect(response.json()).toMatchObject({ imported: 200, skipped: 99_800 });
    console.info(`import of 100,000 CSV rows: ${Math.round(elapsed)} ms`);
    const last = members[199];
    expect(memberIds.size).toBe(200);
    expect(await stored(last?.id ?? '')).toMatchObject({ xp: 7_000, level: levelForTotalXp(7_000) });

    lines.push(`${id(100_001)},one-too-many,1`);
    const tooMany = await upload(lines.join('\n'), 'text/csv');
    expect(tooMany.statusCode).toBe(413);
    expect(tooMany.json().message).toBe(TOO_MANY_ROWS_MESSAGE);
  }, 120_000);

  it('with the job queue down, answers what it imported (no job), so a retry of mode=add is not needed', async () => {
    const down = await appWithRedisDown(h);
    try {
      await h.database.db.insert(memberXp).values({ guildId: station, userId: USERS.nia, xp: 100 });
      const response = await down.inject({
        method: 'POST',
        url: importPath('add'),
        headers: { authorization: ada, 'content-type': 'text/csv' },
        payload: `user_id,xp\n${USERS.nia},50\n`,
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toMatchObject({ imported: 1, skipped: 0, job_id: null });
      // Written once, and still marked: the next apply-rewards run gives the rewards.
      expect(await stored(USERS.nia)).toMatchObject({ xp: 150 });
      expect((await stored(USERS.nia))?.rewardsDueAt).not.toBeNull();
    } finally {
      await down.close();
    }
  });
});

describe('POST leveling/import beside other writers', () => {
  let crew: string[] = [];
  beforeAll(async () => {
    crew = (await newMembers(1_000)).map((m) => m.id);
  }, 120_000);
  beforeEach(async () => {
    await h.database.db.delete(guildHistory).where(eq(guildHistory.guildId, station));
  });

  const tenEach = () => `user_id,xp\n${crew.map((userId) => `${userId},10`).join('\n')}\n`;
  const xpOfCrew = async () => {
    const rows = await h.database.db
      .select({ userId: memberXp.userId, xp: memberXp.xp, level: memberXp.level })
      .from(memberXp)
      .where(and(eq(memberXp.guildId, station), inArray(memberXp.userId, crew)));
    return rows;
  };
  const totalOf = (rows: { xp: number }[]) => rows.reduce((sum, row) => sum + row.xp, 0);

  for (const imports of [2, 4]) {
    it(`${imports} add-imports at once of 1,000 members without a row end with the sum`, async () => {
      const answers = await Promise.all(
        Array.from({ length: imports }, () => upload(tenEach(), 'text/csv', 'add')),
      );
      for (const answer of answers) {
        expect(answer.statusCode, answer.body).toBe(200);
        expect(answer.json()).toMatchObject({ imported: 1_000, skipped: 0 });
      }
      const rows = await xpOfCrew();
      expect(rows).toHaveLength(1_000);
      expect(totalOf(rows)).toBe(1_000 * 10 * imports);
      expect(new Set(rows.map((row) => row.level))).toEqual(new Set([levelForTotalXp(10 * imports)]));
    });
  }

  it('undoing concurrent imports, the last first, puts back what each overwrote (created rows deleted)', async () => {
    const answers = await Promise.all([
      upload(tenEach(), 'text/csv', 'add'),
      upload(tenEach(), 'text/csv', 'add'),
    ]);
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);
    const entries = await h.database.db
      .select({ id: guildHistory.id, snapshot: guildHistory.snapshot })
      .from(guildHistory)
      .where(and(eq(guildHistory.guildId, station), eq(guildHistory.action, 'leveling.import')));
    expect(entries).toHaveLength(2);
    // One import wrote first and created the rows; the other found them at 10 each.
    const membersKept = (entry: (typeof entries)[number]) =>
      ((entry.snapshot as { members?: unknown[] } | null)?.members ?? []).length;
    const second = entries.find((entry) => membersKept(entry) === 1_000);
    const first = entries.find((entry) => membersKept(entry) === 0);
    expect(second && first).toBeTruthy();
    const undo = (entryId: number) =>
      h.app.inject({
        method: 'POST',
        url: routePath(routes.undoHistory, { guildId: station, entryId }),
        headers: { authorization: ada },
        payload: { confirm: true },
      });
    const undoneSecond = await undo(second?.id ?? 0);
    expect(undoneSecond.statusCode, undoneSecond.body).toBeLessThan(300);
    const afterSecond = await xpOfCrew();
    expect(afterSecond).toHaveLength(1_000);
    expect(totalOf(afterSecond)).toBe(10_000);
    const undoneFirst = await undo(first?.id ?? 0);
    expect(undoneFirst.statusCode, undoneFirst.body).toBeLessThan(300);
    expect(await xpOfCrew()).toEqual([]);
  });

  it('an add-import while those members chat loses no XP (5 rounds)', async () => {
    for (let round = 1; round <= 5; round++) {
      await h.database.db.delete(memberXp).where(eq(memberXp.guildId, station));
      // The worker's flush: 10 XP for each of them, in four batches written at the same time as the import.
      const flushes = [0, 1, 2, 3].map((part) =>
        writeXpBatches(h.database.db, {
          batches: [
            {
              batchId: `import-race-${round}-${part}`,
              guildId: station,
              members: crew
                .filter((_, index) => index % 4 === part)
                .map((userId) => ({ userId, xp: 10, messages: 1, username: null, avatar: null })),
            },
          ],
          day: '2026-11-28',
          levelUpLeaseMs: 60_000,
        }),
      );
      const [answer] = await Promise.all([upload(tenEach(), 'text/csv', 'add'), ...flushes]);
      expect(answer?.statusCode, answer?.body).toBe(200);
      const rows = await xpOfCrew();
      expect(rows, `round ${round}`).toHaveLength(1_000);
      expect(totalOf(rows), `round ${round}`).toBe(20_000);
    }
  });
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

describe('GET leveling/export: names of members who never chatted', () => {
  it('fills a ranked member’s blank name from the server (set by a tool, never chatted)', async () => {
    await h.database.db.insert(memberXp).values([
      { guildId: station, userId: USERS.nia, xp: 700, username: null },
      { guildId: station, userId: USERS.mo, xp: 300, username: 'Mo the pilot' },
      { guildId: station, userId: id(9), xp: 100, username: null },
    ]);
    const response = await h.app.inject({
      url: routePath(routes.exportXp, { guildId: station }),
      headers: { authorization: ada },
    });
    expect(response.statusCode).toBe(200);
    expect(response.body).toBe(
      [
        'user_id,username,xp,level,rank',
        // Nia's name on the server; Mo keeps the stored one; an id the server does not know stays blank.
        `${USERS.nia},Nia,700,${levelForTotalXp(700)},1`,
        `${USERS.mo},Mo the pilot,300,${levelForTotalXp(300)},2`,
        `${id(9)},,100,${levelForTotalXp(100)},3`,
        '',
      ].join('\r\n'),
    );
  });
});
