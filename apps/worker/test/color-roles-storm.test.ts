import { colors } from '@spacecadet/db/schema';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  type ChildWorker,
  type ClickResult,
  control,
  type Harness,
  holdNextRoleChange,
  memberRoles,
  postStationColorPanel,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  stationWithCrowd,
  waitFor,
} from './helpers.ts';

/** 200 clicks at once: 50 members clicking 4 different colors each. */
const MEMBERS = 50;
const CLICKS_EACH = 4;
const { fixture, crowd } = stationWithCrowd('2300000000', MEMBERS, 'storm');
const nia = SANDBOX_IDS.users.nia;

describe('a storm of color clicks: the last click of each member wins', () => {
  let harness: Harness;
  /** The worker in a process of its own, as deployed: the storm's clicks are not its sandbox's. */
  let worker: ChildWorker | undefined;
  let panelMessageId = '';
  let palette: Array<{ name: string; roleId: string | null }> = [];

  const click = (userId: string, colorName: string) =>
    control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: SANDBOX_IDS.channels.roles,
      message_id: panelMessageId,
      user_id: userId,
      custom_id: `color:pick:${colorName}`,
    });
  const removeClick = (userId: string) => ({
    guild_id: STATION,
    channel_id: SANDBOX_IDS.channels.roles,
    message_id: panelMessageId,
    user_id: userId,
    custom_id: 'color:remove',
  });
  const colorRolesOf = (userId: string) => {
    const paletteRoles = new Set(palette.map((color) => color.roleId));
    return memberRoles(harness.sandbox, STATION, userId).filter((id) => paletteRoles.has(id));
  };
  const roleOf = (name: string) => palette.find((color) => color.name === name)?.roleId;
  /** The final answers of all `clicks`, read from the sandbox's live state in one poll. */
  const finalAnswers = (clicks: readonly ClickResult[]) =>
    waitFor(
      'every click answered with its outcome',
      () => {
        const contents = clicks.map(
          (result) => harness.sandbox.world.interactions.get(result.interaction_id)?.original?.content,
        );
        return contents.every(Boolean) ? (contents as string[]) : undefined;
      },
      60_000,
    );

  beforeAll(async () => {
    harness = await startHarness(fixture);
    worker = await startChildWorker(harness, { LOG_LEVEL: 'warn' });
    panelMessageId = await postStationColorPanel(harness);
    palette = await harness.database.db.select({ name: colors.name, roleId: colors.roleId }).from(colors);
    expect(palette.length).toBeGreaterThanOrEqual(CLICKS_EACH);
    // The worker answers clicks once its gateway session is up: a first click tells.
    await waitFor(
      'the worker to answer clicks',
      async () => (await control(harness.sandbox).click(removeClick(nia))).responded,
      60_000,
    );
  }, 120_000);
  afterAll(async () => {
    await worker?.stop('SIGTERM');
    await harness.close();
  });

  it('200 simultaneous clicks: every click answered with the color its member ends with, the last clicked', async () => {
    const sent = crowd.flatMap((userId, member) =>
      Array.from({ length: CLICKS_EACH }, (_, k) => ({
        userId,
        colorName: palette[(member + k) % palette.length]?.name ?? '',
      })),
    );
    const clicks = await Promise.all(sent.map(({ userId, colorName }) => click(userId, colorName)));
    expect(clicks.filter((result) => !result.responded)).toEqual([]);
    const answers = await finalAnswers(clicks);
    expect(answers.filter((answer) => answer.startsWith('Still changing'))).toEqual([]);

    for (const userId of crowd) {
      // The member's last click is the one Discord made last: the highest interaction id.
      const mine = sent.flatMap((pick, i) =>
        pick.userId === userId ? [{ ...pick, id: BigInt(clicks[i]?.interaction_id ?? '0'), i }] : [],
      );
      const last = mine.reduce((a, b) => (b.id > a.id ? b : a));
      expect(colorRolesOf(userId), `${userId} holds only ${last.colorName}`).toEqual([
        roleOf(last.colorName),
      ]);
      for (const { i } of mine) {
        expect(answers[i], `a click of ${userId}`).toBe(`You now have the **${last.colorName}** color.`);
      }
    }
  });

  it('a member clicking Red, Blue, Green quickly ends with Green, and every click says so', async () => {
    // Discord holds nia's first role change up for a second (a 429): Blue and Green come while
    // Red is in flight.
    const before = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
    const held = await holdNextRoleChange(harness, nia, 'PUT', 1);
    const red = await click(nia, 'Red');
    await held();
    const blue = await click(nia, 'Blue');
    const green = await click(nia, 'Green');
    const answers = await finalAnswers([red, blue, green]);
    expect(answers).toEqual(Array(3).fill('You now have the **Green** color.'));
    expect(colorRolesOf(nia)).toEqual([roleOf('Green')]);
    // Blue was never given: only the newest waiting pick is applied.
    const blueRole = roleOf('Blue');
    const gaveBlue = harness.sandbox.world.requests.filter(
      (request) =>
        request.seq > before &&
        request.method === 'PUT' &&
        request.path === `/guilds/${STATION}/members/${nia}/roles/${blueRole}`,
    );
    expect(gaveBlue).toEqual([]);
  });

  it('a click applied while a newer one of the member is still being acknowledged says what the newer one gives', async () => {
    // Red's role change is held a second (a 429); Blue's acknowledgement 1.8 s
    // (a 429 on its callback), so Red is applied while Blue is in the worker, not yet recorded.
    const held = await holdNextRoleChange(harness, nia, 'PUT', 1);
    const red = await click(nia, 'Red');
    await held();
    await control(harness.sandbox).fault({
      method: 'POST',
      path: '/interactions/',
      status: 429,
      count: 1,
      retry_after: 1.8,
    });
    const blue = await click(nia, 'Blue');
    expect(blue.responded).toBe(true);
    const answers = await finalAnswers([red, blue]);
    expect(colorRolesOf(nia)).toEqual([roleOf('Blue')]);
    expect(answers).toEqual(Array(2).fill('You now have the **Blue** color.'));
  });
});
