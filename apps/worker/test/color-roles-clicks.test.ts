import { colorWarningsKey } from '@spacecadet/contract';
import { colorPanels, colorShades, colors, guildConfigs } from '@spacecadet/db/schema';
import { InteractionResponseType, MessageFlags } from 'discord.js';
import { eq } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  COLOR_REMOVED_MESSAGE,
  NO_COLOR_MESSAGE,
  ROLE_ABOVE_BOT_MESSAGE,
} from '../src/features/color-roles/assign.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ClickResult,
  control,
  finalAnswer as finalAnswerOf,
  finalMessage,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
  storedKey,
  waitFor,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const nia = SANDBOX_IDS.users.nia;

describe('members picking colors on the panel', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  let panelMessageId = '';

  const click = (customId: string, messageId = panelMessageId): Promise<ClickResult> =>
    control(harness.sandbox).click({
      guild_id: STATION,
      channel_id: rolesChannel,
      message_id: messageId,
      user_id: nia,
      custom_id: customId,
    });
  const roleIdOfColor = async (name: string) =>
    (await harness.database.db.select().from(colors).where(eq(colors.name, name)))[0]?.roleId ?? '';
  const colorRolesOfNia = async () => {
    const palette = new Set([
      ...(await harness.database.db.select({ id: colors.roleId }).from(colors)).map((row) => row.id),
      ...(await harness.database.db.select({ id: colorShades.roleId }).from(colorShades)).map(
        (row) => row.id,
      ),
    ]);
    return memberRoles(harness.sandbox, STATION, nia).filter((id) => palette.has(id));
  };
  const finalAnswer = (result: ClickResult) => finalAnswerOf(harness.sandbox, result);
  /** A click whose final answer (and so its role change) is in. */
  const answered = async (customId: string, messageId = panelMessageId) => {
    const result = await click(customId, messageId);
    return { result, answer: await finalAnswer(result) };
  };
  const setMode = (mode: 'basic' | 'shades') =>
    harness.database.db
      .insert(guildConfigs)
      .values({ guildId: STATION, data: { color_roles_mode: mode } })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: { data: { color_roles_mode: mode } } });
  const generate = async () => {
    const outcome = await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
    expect(outcome.state).toBe('completed');
  };
  /** The REST calls the sandbox answered after `seq` (see GET /_sandbox/requests). */
  const requestsSince = async (seq: number) => {
    const response = await fetch(`${harness.sandbox.url}/_sandbox/requests`);
    const all = (await response.json()) as Array<{
      seq: number;
      method: string;
      path: string;
      status: number;
    }>;
    return all.filter((request) => request.seq > seq);
  };
  const lastSeq = async () => (await requestsSince(0)).at(-1)?.seq ?? 0;
  const setUp = async (mode: 'basic' | 'shades') => {
    await setMode(mode);
    for (const name of ['color-roles.generate', 'color-roles.post-panel'] as const) {
      const outcome = await jobs.finished((await jobs.add(name)).id ?? '');
      expect(outcome.state).toBe('completed');
    }
    const [panel] = await harness.database.db.select().from(colorPanels);
    panelMessageId = panel?.messageId ?? '';
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    await harness.database.db.insert(colorPanels).values({ guildId: STATION, channelId: rolesChannel });
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('basic mode: nia clicks Red and has only Red, then Blue and has only Blue', async () => {
    await setUp('basic');
    const red = await answered('color:pick:Red');
    expect(red.result.responded).toBe(true);
    expect(red.result.response?.data).toMatchObject({ flags: MessageFlags.Ephemeral });
    expect(red.answer).toBe('You now have the **Red** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Red')]);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(SANDBOX_IDS.roles.stationCrew);

    const blue = await answered('color:pick:Blue');
    expect(blue.answer).toBe('You now have the **Blue** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Blue')]);
  });

  it('answers first when the role change is slow, then edits the outcome in', async () => {
    await setUp('basic');
    // Discord rate-limits the role add for 2 s: the member is answered before it is tried.
    await control(harness.sandbox).fault({
      method: 'PUT',
      path: `/guilds/${STATION}/members/${nia}/roles/`,
      status: 429,
      count: 1,
      retry_after: 2,
    });
    const since = await lastSeq();
    const result = await click('color:pick:Green');
    expect(result.responded).toBe(true);
    expect(result.response?.type).toBe(InteractionResponseType.DeferredChannelMessageWithSource);
    expect(await finalAnswer(result)).toBe('You now have the **Green** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Green')]);
    // Answered before the role add was even tried (how soon is `pnpm bench click-latency`'s).
    const [firstTry] = harness.sandbox.world.requests.filter(
      (request) =>
        request.seq > since &&
        request.method === 'PUT' &&
        request.path.startsWith(`/guilds/${STATION}/members/${nia}/roles/`),
    );
    expect(firstTry?.status).toBe(429);
    const answeredAt = harness.sandbox.world.interactions.get(result.interaction_id)?.responded_ms;
    expect(answeredAt).toBeLessThanOrEqual(Date.parse(firstTry?.at ?? ''));
  });

  it('shades mode: a family button opens an ephemeral shade picker and the pick assigns that shade', async () => {
    await setUp('shades');
    const picker = await click('color:family:Red');
    expect(picker.responded).toBe(true);
    expect(picker.response?.data?.flags).toBe(MessageFlags.Ephemeral);
    const buttons = JSON.stringify(picker.response?.data?.components ?? []);
    expect(buttons).toContain('color:shade:Crimson');

    const pick = await answered('color:shade:Crimson', picker.message?.id);
    expect(pick.answer).toContain('Crimson');
    const [crimson] = await harness.database.db
      .select()
      .from(colorShades)
      .where(eq(colorShades.name, 'Crimson'));
    expect(await colorRolesOfNia()).toEqual([crimson?.roleId]);

    const naturals = await click('color:family:naturals');
    const naturalButtons = JSON.stringify(naturals.response?.data?.components ?? []);
    expect(naturalButtons).toContain('color:shade:Champagne');
    expect(naturalButtons).not.toContain('Crimson');
  });

  it('concurrent clicks on different colors leave the member with exactly one color', async () => {
    await setUp('basic');
    const names = ['Red', 'Blue', 'Green', 'Pink'];
    for (let round = 0; round < 3; round++) {
      const clicks = await Promise.all(names.map((name) => click(`color:pick:${name}`)));
      // Every click is answered (some may have been deferred while another held the member).
      const answers = await Promise.all(clicks.map((result) => finalAnswer(result)));
      for (const answer of answers) expect(answer).toMatch(/^You now have the \*\*\w+\*\* color\.$/);
      const held = await colorRolesOfNia();
      expect(held).toHaveLength(1);
      const roleIds = await Promise.all(names.map((name) => roleIdOfColor(name)));
      expect(roleIds).toContain(held[0]);
    }
  });

  it('concurrent clicks end with one color even when the gateway reports role changes late', async () => {
    await setUp('basic');
    // Discord's GUILD_MEMBER_UPDATE can arrive after the REST answer: hold discord.js's handling
    // of it so the cached member (which clicks read their roles from) lags behind each swap.
    const action = (
      worker.client as unknown as {
        actions: { GuildMemberUpdate: { handle(...args: unknown[]): unknown } };
      }
    ).actions.GuildMemberUpdate;
    const handle = action.handle;
    action.handle = (...args: unknown[]) => {
      setTimeout(() => handle.apply(action, args), 400);
      return {};
    };
    try {
      for (const names of [
        ['Red', 'Blue'],
        ['Green', 'Pink', 'Orange'],
      ]) {
        const clicks = await Promise.all(names.map((name) => click(`color:pick:${name}`)));
        await Promise.all(clicks.map((result) => finalAnswer(result)));
        expect(await colorRolesOfNia()).toHaveLength(1);
      }
    } finally {
      action.handle = handle;
    }
  });

  it('a member hammering the panel gets every click answered and ends with one color', async () => {
    await setUp('basic');
    const names = ['Red', 'Blue', 'Green', 'Pink', 'Orange'];
    // 100 swaps one after the other (a PUT and a DELETE each, under discord.js's 50 requests per
    // second) would take 4 s or more: the clicks waiting together are applied as one, the last.
    // (How soon the last final answer comes is `pnpm bench click-latency`'s "one member hammering".)
    const clicks = await Promise.all(
      Array.from({ length: 100 }, (_, index) => click(`color:pick:${names[index % names.length]}`)),
    );
    expect(clicks.filter((result) => !result.responded)).toEqual([]);
    const answers = await Promise.all(clicks.map((result) => finalAnswer(result)));
    for (const answer of answers) expect(answer).toMatch(/^You now have the \*\*\w+\*\* color\.$/);
    // Every click is answered with the one color nia ends with.
    expect(new Set(answers).size).toBe(1);
    expect(await colorRolesOfNia()).toHaveLength(1);
  });

  it('Remove color takes the color away; without one the member is told so, with no REST call', async () => {
    await setUp('basic');
    await answered('color:pick:Red');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Red')]);

    const removed = await answered('color:remove');
    expect(removed.result.response?.data).toMatchObject({ flags: MessageFlags.Ephemeral });
    expect(removed.answer).toBe(COLOR_REMOVED_MESSAGE);
    expect(await colorRolesOfNia()).toEqual([]);
    expect(memberRoles(harness.sandbox, STATION, nia)).toContain(SANDBOX_IDS.roles.stationCrew);

    const since = await lastSeq();
    const none = await answered('color:remove');
    expect(none.result.response?.data).toMatchObject({ flags: MessageFlags.Ephemeral });
    expect(none.answer).toBe(NO_COLOR_MESSAGE);
    // The only calls are the answer itself (deferred, then edited): no role change, no member fetch.
    const calls = await requestsSince(since);
    expect(calls.map((r) => `${r.method} ${r.path.split('/')[1]}`)).toEqual([
      'POST interactions',
      'PATCH webhooks',
    ]);

    // A later pick gives the color again.
    const red = await answered('color:pick:Red');
    expect(red.answer).toBe('You now have the **Red** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Red')]);
  });

  /**
   * Starts a click whose role change Discord holds up (a 429), and waits until it is held.
   * The click's result comes wrapped, so awaiting this does not wait for the click itself.
   */
  const heldClick = async (customId: string, method: 'PUT' | 'DELETE') => {
    const since = await lastSeq();
    await control(harness.sandbox).fault({
      method,
      path: `/guilds/${STATION}/members/${nia}/roles/`,
      status: 429,
      count: 1,
      retry_after: 0.4,
    });
    const result = click(customId);
    await waitFor(`the held ${method}`, async () =>
      (await requestsSince(since)).some((r) => r.method === method && r.status === 429),
    );
    return { result };
  };

  it('a pick clicked while a remove is under way gives the color (the later click wins)', async () => {
    await setUp('basic');
    await answered('color:pick:Red');
    const { result: remove } = await heldClick('color:remove', 'DELETE');
    // Clicked while the remove runs: Discord still shows Red on nia, so this payload has it.
    const pick = click('color:pick:Red');
    // Both clicks are answered with what nia ends with.
    expect(await finalAnswer(await remove)).toBe('You now have the **Red** color.');
    expect(await finalAnswer(await pick)).toBe('You now have the **Red** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Red')]);
  });

  it('a remove clicked while a pick is under way removes the picked color too', async () => {
    await setUp('basic');
    await answered('color:pick:Red');
    const { result: pick } = await heldClick('color:pick:Blue', 'PUT');
    // Clicked while the pick runs: its payload has Red, not yet Blue.
    const remove = click('color:remove');
    expect(await finalAnswer(await pick)).toBe(COLOR_REMOVED_MESSAGE);
    expect(await finalAnswer(await remove)).toBe(COLOR_REMOVED_MESSAGE);
    expect(await colorRolesOfNia()).toEqual([]);
  });

  it('removes and picks clicked together leave at most one color', async () => {
    await setUp('basic');
    for (let round = 0; round < 3; round++) {
      const clicks = await Promise.all(
        ['color:pick:Red', 'color:remove', 'color:pick:Blue', 'color:remove', 'color:pick:Green'].map((id) =>
          click(id),
        ),
      );
      const answers = await Promise.all(clicks.map((result) => finalAnswer(result)));
      for (const answer of answers) {
        expect([
          COLOR_REMOVED_MESSAGE,
          NO_COLOR_MESSAGE,
          expect.stringMatching(/^You now have the \*\*\w+\*\* color\.$/),
        ]).toContainEqual(answer);
      }
      const held = await colorRolesOfNia();
      expect(held.length).toBeLessThanOrEqual(1);
      // What the clicks left is what the next Remove color finds.
      const last = await click('color:remove');
      expect(await finalAnswer(last)).toBe(held.length === 0 ? NO_COLOR_MESSAGE : COLOR_REMOVED_MESSAGE);
      expect(await colorRolesOfNia()).toEqual([]);
    }
  });

  it('a panel posted before a mode switch keeps working once Generate Roles retired the old roles', async () => {
    await setUp('basic');
    await answered('color:pick:Red');
    await setMode('shades');
    await generate();
    const [crimson] = await harness.database.db
      .select()
      .from(colorShades)
      .where(eq(colorShades.name, 'Crimson'));
    expect(await colorRolesOfNia()).toEqual([crimson?.roleId]);

    // The basic panel's Blue button: Blue has no role any more, so it offers Blue's shades.
    const picker = await finalMessage(harness.sandbox, await click('color:pick:Blue'));
    expect(JSON.stringify(picker.components)).toContain('color:shade:Navy');

    // Back to basic: nia keeps Red, and the shade picker still open gives a shade's color.
    await setMode('basic');
    await generate();
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Red')]);
    const navy = await click('color:shade:Navy', picker.id);
    expect(await finalAnswer(navy)).toBe('You now have the **Blue** color.');
    expect(await colorRolesOfNia()).toEqual([await roleIdOfColor('Blue')]);
  });

  it('a role above the bot gets the member a clear message and the admin a warning', async () => {
    await setUp('basic');
    // An admin moved "Red" above the bot's role: here Red points at Moderators, which sits above it.
    await harness.database.db
      .update(colors)
      .set({ roleId: SANDBOX_IDS.roles.stationModerators })
      .where(eq(colors.name, 'Red'));
    const result = await answered('color:pick:Red');
    expect(result.result.response?.data).toMatchObject({ flags: MessageFlags.Ephemeral });
    expect(result.answer).toBe(ROLE_ABOVE_BOT_MESSAGE);
    expect(memberRoles(harness.sandbox, STATION, nia)).not.toContain(SANDBOX_IDS.roles.stationModerators);
    const redis = new Redis(harness.redis.url);
    try {
      const warnings = await redis.hvals(storedKey(harness, colorWarningsKey(STATION)));
      expect(warnings).toEqual([expect.stringContaining('Moderators')]);
    } finally {
      redis.disconnect();
    }
  });
});
