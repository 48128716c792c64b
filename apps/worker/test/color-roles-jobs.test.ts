import { DEFAULT_COLOR_PALETTE, hexToColorInt } from '@spacecadet/core';
import { colorGroups, colorPanels, colorShades, colors, guildConfigs } from '@spacecadet/db/schema';
import { eq, isNotNull } from 'drizzle-orm';
import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { guildMembers } from '../src/guild-members.ts';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  control,
  guildState,
  type Harness,
  jobQueue,
  memberRoles,
  SANDBOX_IDS,
  STATION,
  startHarness,
} from './helpers.ts';

const rolesChannel = SANDBOX_IDS.channels.roles;
const announcements = SANDBOX_IDS.channels.announcements;
const familyNames = DEFAULT_COLOR_PALETTE.map((family) => family.name).sort();
const shadeCount = DEFAULT_COLOR_PALETTE.reduce((n, family) => n + Math.max(1, family.shades.length), 0);

describe('color-roles jobs', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;
  const baseline = () => guildState(harness.sandbox, STATION).roles.length;
  let fixtureRoles = 0;

  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  const roleNames = () => guildState(harness.sandbox, STATION).roles.map((role) => role.name);
  const setMode = (mode: 'basic' | 'shades') =>
    harness.database.db
      .insert(guildConfigs)
      .values({ guildId: STATION, data: { color_roles_mode: mode } })
      .onConflictDoUpdate({ target: guildConfigs.guildId, set: { data: { color_roles_mode: mode } } });

  /** Sets the panel channel as the API's PUT channel route does. */
  const setPanelChannel = (channelId: string) =>
    harness.database.db
      .insert(colorPanels)
      .values({ guildId: STATION, channelId })
      .onConflictDoUpdate({ target: colorPanels.guildId, set: { channelId } });
  const messagesIn = (channelId: string) =>
    guildState(harness.sandbox, STATION).channels.find((c) => c.id === channelId)?.messages ?? [];

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
    fixtureRoles = baseline();
  });
  afterEach(async () => {
    const reset = await run('color-roles.reset');
    expect(reset.state).toBe('completed');
    await setMode('basic');
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('basic mode: seeds the palette and creates exactly one role per color; a second run creates nothing', async () => {
    const first = await run('color-roles.generate');
    expect(first.state).toBe('completed');
    expect(first.result).toMatchObject({ ok: true, created: 12 });
    expect(baseline()).toBe(fixtureRoles + 12);
    const created = guildState(harness.sandbox, STATION).roles.filter((role) =>
      familyNames.includes(role.name),
    );
    expect(created.map((role) => role.name).sort()).toEqual(familyNames);
    for (const family of DEFAULT_COLOR_PALETTE) {
      expect(created.find((role) => role.name === family.name)?.color).toBe(hexToColorInt(family.hex));
    }
    const stored = await harness.database.db.select().from(colors).where(isNotNull(colors.roleId));
    expect(new Set(stored.map((color) => color.roleId)).size).toBe(12);

    const second = await run('color-roles.generate');
    expect(second.result).toMatchObject({ ok: true, created: 0 });
    expect(baseline()).toBe(fixtureRoles + 12);
  });

  it('puts the color roles just below the bot role, and only moves them when they are not there', async () => {
    /** Role names bottom to top, with color roles shown as "color". */
    const ladder = () =>
      [...guildState(harness.sandbox, STATION).roles]
        .sort((a, b) => a.position - b.position)
        .map((role) => (familyNames.includes(role.name) ? 'color' : role.name));
    const placed = ['@everyone', 'Crew', 'Managers', ...Array(12).fill('color'), 'Space Cadet', 'Moderators'];
    const positions = () =>
      guildState(harness.sandbox, STATION)
        .roles.map((role) => role.position)
        .sort((a, b) => a - b);

    expect((await run('color-roles.generate')).state).toBe('completed');
    expect(ladder()).toEqual(placed);
    expect(positions()).toEqual([...Array(17).keys()]);

    // Already in place: a second run makes no PATCH (it would use up this fault).
    const sandbox = control(harness.sandbox);
    await sandbox.fault({ method: 'PATCH', path: `/guilds/${STATION}/roles`, status: 500, count: 1 });
    expect((await run('color-roles.generate')).state).toBe('completed');
    expect((await sandbox.faults()).map((fault) => fault.remaining)).toEqual([1]);
    await sandbox.clearFaults();

    // An admin drags Red to the bottom; the next run puts it back with the others.
    const red = guildState(harness.sandbox, STATION).roles.find((role) => role.name === 'Red');
    await sandbox.botRest('PATCH', `/guilds/${STATION}/roles`, [{ id: red?.id, position: 1 }]);
    expect(ladder()[1]).toBe('color');
    expect((await run('color-roles.generate')).state).toBe('completed');
    expect(ladder()).toEqual(placed);
  });

  it('recreates only a role deleted in Discord', async () => {
    await run('color-roles.generate');
    const red = guildState(harness.sandbox, STATION).roles.find((role) => role.name === 'Red');
    await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${red?.id}`);
    const again = await run('color-roles.generate');
    expect(again.result).toMatchObject({ created: 1 });
    expect(roleNames().filter((name) => name === 'Red')).toHaveLength(1);
    expect(baseline()).toBe(fixtureRoles + 12);
    const [stored] = await harness.database.db.select().from(colors).where(eq(colors.name, 'Red'));
    expect(stored?.roleId).not.toBe(red?.id);
  });

  it('shades mode: one role per shade', async () => {
    await setMode('shades');
    const outcome = await run('color-roles.generate');
    expect(outcome.result).toMatchObject({ ok: true, created: shadeCount });
    expect(baseline()).toBe(fixtureRoles + shadeCount);
    const shadeRoles = await harness.database.db
      .select()
      .from(colorShades)
      .where(isNotNull(colorShades.roleId));
    expect(shadeRoles).toHaveLength(shadeCount);
    expect((await run('color-roles.generate')).result).toMatchObject({ created: 0 });
  });

  it('adopts a role a killed run created but never recorded, instead of duplicating it', async () => {
    await run('color-roles.generate');
    const [red] = await harness.database.db.select().from(colors).where(eq(colors.name, 'Red'));
    // The state a SIGKILL between Discord's create and our write leaves: a marked, unrecorded role.
    await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${red?.roleId}`);
    const orphan = await control(harness.sandbox).botRest<{ id: string }>(
      'POST',
      `/guilds/${STATION}/roles`,
      {
        name: 'Red',
        color: hexToColorInt(red?.hexCode ?? '#000000'),
      },
    );
    const redis = new Redis(harness.redis.url);
    await redis.hset(
      `${harness.redis.prefix}:color-roles:creating:${STATION}`,
      `color:${red?.id}`,
      JSON.stringify({ name: 'Red', color: hexToColorInt(red?.hexCode ?? '') }),
    );
    redis.disconnect();
    const outcome = await run('color-roles.generate');
    expect(outcome.result).toMatchObject({ created: 0 });
    const [after] = await harness.database.db.select().from(colors).where(eq(colors.name, 'Red'));
    expect(after?.roleId).toBe(orphan.id);
    expect(roleNames().filter((name) => name === 'Red')).toHaveLength(1);
  });

  it('refuses to pass the 250-role cap before creating anything', async () => {
    const sandbox = control(harness.sandbox);
    const filler: string[] = [];
    while (baseline() < 245) {
      filler.push(
        (await sandbox.botRest<{ id: string }>('POST', `/guilds/${STATION}/roles`, { name: 'filler' })).id,
      );
    }
    const outcome = await run('color-roles.generate');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/^role_cap_reached: /);
    expect(outcome.job.attemptsMade).toBe(1);
    expect(baseline()).toBe(245);
    for (const id of filler) await sandbox.botRest('DELETE', `/guilds/${STATION}/roles/${id}`);
  });

  it('posts the panel, then edits the same message', async () => {
    await setPanelChannel(rolesChannel);
    await run('color-roles.generate');
    const first = await run('color-roles.post-panel');
    expect(first.result).toMatchObject({ ok: true, summary: 'Color panel posted.' });
    const [panel] = await harness.database.db.select().from(colorPanels);
    const channel = () => guildState(harness.sandbox, STATION).channels.find((c) => c.id === rolesChannel);
    expect(channel()?.messages.map((message) => message.id)).toEqual([panel?.messageId]);
    const posted = channel()?.messages[0];
    const customIds = posted?.components?.flatMap((row) =>
      'components' in row ? row.components.map((c) => ('custom_id' in c ? c.custom_id : '')) : [],
    );
    expect(customIds?.[0]).toBe('color:pick:Red');
    // 12 colors, then Remove color.
    expect(customIds).toHaveLength(13);
    expect(customIds?.at(-1)).toBe('color:remove');

    await setMode('shades');
    const second = await run('color-roles.post-panel');
    expect(second.result).toMatchObject({ ok: true, summary: 'Color panel updated.' });
    expect(channel()?.messages.map((message) => message.id)).toEqual([panel?.messageId]);
  });

  it('moves the panel when the admin picks another channel, and reset deletes it there', async () => {
    await setPanelChannel(rolesChannel);
    await run('color-roles.generate');
    await run('color-roles.post-panel');
    expect(messagesIn(rolesChannel)).toHaveLength(1);
    const [first] = await harness.database.db.select().from(colorPanels);
    expect(first).toMatchObject({ messageChannelId: rolesChannel });

    // The admin picks #announcements.
    await setPanelChannel(announcements);
    const moved = await run('color-roles.post-panel');
    expect(moved.result).toMatchObject({ ok: true, summary: 'Color panel moved to the new channel.' });
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    expect(messagesIn(announcements)).toHaveLength(1);
    const [panel] = await harness.database.db.select().from(colorPanels);
    expect(panel).toMatchObject({
      channelId: announcements,
      messageId: messagesIn(announcements)[0]?.id,
      messageChannelId: announcements,
    });

    const reset = await run('color-roles.reset');
    expect(reset.state).toBe('completed');
    expect(messagesIn(announcements)).toHaveLength(0);
    const [after] = await harness.database.db.select().from(colorPanels);
    expect(after).toMatchObject({ channelId: announcements, messageId: null, messageChannelId: null });
  });

  it('a move that crashes after posting is retried without leaving two panels', async () => {
    await setPanelChannel(rolesChannel);
    await run('color-roles.generate');
    await run('color-roles.post-panel');
    await setPanelChannel(announcements);
    // Deleting the old panel fails on the first attempt (Discord 500s through every REST retry),
    // after the new panel was already posted.
    const sandbox = control(harness.sandbox);
    await sandbox.fault({
      method: 'DELETE',
      path: `/channels/${rolesChannel}/messages/`,
      status: 500,
      count: 4,
    });
    const outcome = await run('color-roles.post-panel');
    expect(outcome.state).toBe('completed');
    expect(outcome.job.attemptsMade).toBeGreaterThan(1);
    expect((await sandbox.faults()).every((fault) => fault.remaining === 0)).toBe(true);
    expect(messagesIn(rolesChannel)).toHaveLength(0);
    expect(messagesIn(announcements)).toHaveLength(1);
    const [panel] = await harness.database.db.select().from(colorPanels);
    expect(panel?.messageId).toBe(messagesIn(announcements)[0]?.id);
  });

  it('never posts, edits or deletes a panel in a stored channel of another guild', async () => {
    const orbitHangar = SANDBOX_IDS.channels.orbitHangar;
    const orbitMessages = () =>
      guildState(harness.sandbox, SANDBOX_IDS.guilds.orbit).channels.find((c) => c.id === orbitHangar)
        ?.messages ?? [];
    await run('color-roles.generate');
    // Stored by hand, as an API without the ownership check once let an admin do.
    await setPanelChannel(orbitHangar);
    const outcome = await run('color-roles.post-panel');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toBe('invalid_input: That channel is not in this server. Pick a channel again.');
    expect(outcome.job.attemptsMade).toBe(1);
    expect(orbitMessages()).toHaveLength(0);

    // A panel recorded as posted in that channel (its message is someone else's) is not deleted.
    const bystander = await control(harness.sandbox).botRest<{ id: string }>(
      'POST',
      `/channels/${orbitHangar}/messages`,
      { content: 'Other Orbit news' },
    );
    await harness.database.db
      .update(colorPanels)
      .set({ messageId: bystander.id, messageChannelId: orbitHangar });
    await setPanelChannel(rolesChannel);
    const moved = await run('color-roles.post-panel');
    expect(moved.state).toBe('completed');
    expect(orbitMessages().map((message) => message.id)).toEqual([bystander.id]);
    expect(messagesIn(rolesChannel)).toHaveLength(1);
  });

  it('post-panel names the permission an overwrite took from the bot, and the channel', async () => {
    await run('color-roles.generate');
    await setPanelChannel(rolesChannel);
    const overwrite = `${harness.sandbox.url}/_sandbox/channels/${rolesChannel}/permissions/${SANDBOX_IDS.roles.stationBot}`;
    // An admin denies the bot's role Embed Links in #roles (the panel is an embed).
    const denied = await fetch(overwrite, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ type: 0, allow: '0', deny: String(1n << 14n) }),
    });
    expect(denied.status).toBe(200);
    try {
      const outcome = await run('color-roles.post-panel');
      expect(outcome.state).toBe('failed');
      expect(outcome.error).toBe(
        "forbidden: Missing permission Embed Links in #roles. Allow it for the bot in that channel's permissions on Discord, then run this again.",
      );
    } finally {
      await fetch(overwrite, { method: 'DELETE' });
    }
    expect((await run('color-roles.post-panel')).state).toBe('completed');
  });

  it('post-panel without a channel fails with Select a channel first', async () => {
    await harness.database.db.delete(colorPanels);
    await run('color-roles.generate');
    const outcome = await run('color-roles.post-panel');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toContain('Select a channel first');
  });

  describe('switching the mode, then generating', () => {
    const { nia, mo, ada } = SANDBOX_IDS.users;
    const storedColors = () => harness.database.db.select().from(colors);
    const storedShades = () => harness.database.db.select().from(colorShades);
    const roleIdOf = async (name: string) => {
      const color = (await storedColors()).find((row) => row.name === name);
      const shade = (await storedShades()).find((row) => row.name === name);
      const id = color?.roleId ?? shade?.roleId;
      if (!id) throw new Error(`no role recorded for ${name}`);
      return id;
    };
    const give = (userId: string, roleId: string) =>
      control(harness.sandbox).botRest('PUT', `/guilds/${STATION}/members/${userId}/roles/${roleId}`);
    /** Names of the palette roles a member holds (a role is named after its color or shade). */
    const colorsOf = async (userId: string) => {
      const recorded = new Map<string, string>();
      for (const row of [...(await storedColors()), ...(await storedShades())]) {
        if (row.roleId) recorded.set(row.roleId, row.name);
      }
      return memberRoles(harness.sandbox, STATION, userId)
        .flatMap((id) => recorded.get(id) ?? [])
        .sort();
    };
    /** Everything a run decides: Discord's roles, every member's roles, the recorded ids. */
    const snapshot = async () => ({
      roles: guildState(harness.sandbox, STATION)
        .roles.map((role) => `${role.id} ${role.name} ${role.color}`)
        .sort(),
      members: guildState(harness.sandbox, STATION).members.map((m) => [m.user_id, [...m.roles].sort()]),
      colors: (await storedColors()).map((row) => [row.name, row.roleId]).sort(),
      shades: (await storedShades()).map((row) => [row.name, row.roleId]).sort(),
    });

    it('basic → shades: the basic roles go from Discord and the palette, members keep the closest shade', async () => {
      expect((await run('color-roles.generate')).state).toBe('completed');
      const basicRoleIds = (await storedColors()).map((row) => row.roleId);
      await give(nia, await roleIdOf('Red'));
      await give(mo, await roleIdOf('Blue'));
      await give(ada, await roleIdOf('Black'));

      await setMode('shades');
      const outcome = await run('color-roles.generate');
      expect(outcome.state).toBe('completed');
      expect(outcome.result).toMatchObject({ ok: true, created: shadeCount, deleted: 12 });
      expect((outcome.result as { summary: string }).summary).toBe(
        `${shadeCount} roles created, 0 already present (shades mode). 12 basic-mode roles removed; 3 members moved to the closest shade.`,
      );
      const discordRoles = guildState(harness.sandbox, STATION).roles.map((role) => role.id);
      for (const id of basicRoleIds) expect(discordRoles).not.toContain(id);
      expect(baseline()).toBe(fixtureRoles + shadeCount);
      expect((await storedColors()).filter((row) => row.roleId !== null)).toEqual([]);
      expect(await colorsOf(nia)).toEqual(['Crimson']);
      expect(await colorsOf(mo)).toEqual(['Royal Blue']);
      expect(await colorsOf(ada)).toEqual(['Jet']);
      // Their other roles are untouched.
      expect(memberRoles(harness.sandbox, STATION, mo)).toContain(SANDBOX_IDS.roles.stationManagers);

      // A second run finds nothing to do and changes nothing.
      const before = await snapshot();
      const again = await run('color-roles.generate');
      expect(again.result).toMatchObject({ ok: true, created: 0, deleted: 0 });
      expect(await snapshot()).toEqual(before);
    });

    it("shades → basic: the shade roles go, members get their shade's color", async () => {
      await setMode('shades');
      expect((await run('color-roles.generate')).state).toBe('completed');
      const shadeRoleIds = (await storedShades()).map((row) => row.roleId);
      await give(nia, await roleIdOf('Navy'));
      await give(mo, await roleIdOf('Goldenrod'));

      await setMode('basic');
      const outcome = await run('color-roles.generate');
      expect(outcome.result).toMatchObject({ ok: true, created: 12, deleted: shadeCount });
      expect((outcome.result as { summary: string }).summary).toMatch(
        new RegExp(`${shadeCount} shades-mode roles removed; 2 members moved to the closest color.$`),
      );
      const discordRoles = guildState(harness.sandbox, STATION).roles.map((role) => role.id);
      for (const id of shadeRoleIds) expect(discordRoles).not.toContain(id);
      expect(baseline()).toBe(fixtureRoles + 12);
      expect((await storedShades()).filter((row) => row.roleId !== null)).toEqual([]);
      expect(await colorsOf(nia)).toEqual(['Blue']);
      expect(await colorsOf(mo)).toEqual(['Gold']);
      expect(await colorsOf(ada)).toEqual([]);

      const before = await snapshot();
      expect((await run('color-roles.generate')).result).toMatchObject({ created: 0, deleted: 0 });
      expect(await snapshot()).toEqual(before);
    });

    it('a run that dies halfway is retried to the state one run reaches', async () => {
      expect((await run('color-roles.generate')).state).toBe('completed');
      await give(nia, await roleIdOf('Red'));
      await give(mo, await roleIdOf('Green'));
      const red = await roleIdOf('Red');
      // An admin (or a run that died between Discord's delete and our write) already deleted
      // "Orange" in Discord; its id is still recorded.
      const orange = await roleIdOf('Orange');
      await control(harness.sandbox).botRest('DELETE', `/guilds/${STATION}/roles/${orange}`);

      await setMode('shades');
      // The first attempt dies at its first role delete (Discord 500s through every REST retry),
      // after the members were moved; the retry resumes.
      const sandbox = control(harness.sandbox);
      await sandbox.fault({ method: 'DELETE', path: `/guilds/${STATION}/roles/`, status: 500, count: 4 });
      const outcome = await run('color-roles.generate');
      expect(outcome.state).toBe('completed');
      expect(outcome.job.attemptsMade).toBeGreaterThan(1);
      expect((await sandbox.faults()).every((fault) => fault.remaining === 0)).toBe(true);
      // The retry deleted the 11 roles still in Discord; Orange was only unrecorded.
      expect(outcome.result).toMatchObject({ ok: true, created: 0, deleted: 11 });
      const discordRoles = guildState(harness.sandbox, STATION).roles.map((role) => role.id);
      expect(discordRoles).not.toContain(red);
      expect(baseline()).toBe(fixtureRoles + shadeCount);
      expect((await storedColors()).filter((row) => row.roleId !== null)).toEqual([]);
      expect(await colorsOf(nia)).toEqual(['Crimson']);
      expect(await colorsOf(mo)).toEqual(['Forest Green']);

      const before = await snapshot();
      expect((await run('color-roles.generate')).result).toMatchObject({ created: 0, deleted: 0 });
      expect(await snapshot()).toEqual(before);
    });

    it('reads every member page by page, after the last id of each page', async () => {
      const response = await fetch(`${harness.sandbox.url}/_sandbox/requests`);
      const since = ((await response.json()) as Array<{ seq: number }>).at(-1)?.seq ?? 0;
      const ids: string[] = [];
      for await (const member of guildMembers(worker.client, STATION, 2)) ids.push(member.user.id);
      expect(ids).toEqual(
        guildState(harness.sandbox, STATION)
          .members.map((m) => m.user_id)
          .sort(),
      );
      expect(ids).toHaveLength(4);
      const requests = (await (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json()) as Array<{
        seq: number;
        method: string;
        path: string;
      }>;
      // Two full pages of 2, then an empty one.
      expect(requests.filter((r) => r.seq > since && r.path === `/guilds/${STATION}/members`)).toHaveLength(
        3,
      );
    });

    it('a member who already holds a color of the new mode keeps only that one', async () => {
      expect((await run('color-roles.generate')).state).toBe('completed');
      await give(nia, await roleIdOf('Red'));
      await give(mo, await roleIdOf('Red'));
      await setMode('shades');
      // Every attempt dies reading the member list: the shade roles exist, the basic ones too.
      const sandbox = control(harness.sandbox);
      await sandbox.fault({ method: 'GET', path: `/guilds/${STATION}/members`, status: 500, count: 100 });
      expect((await run('color-roles.generate')).state).toBe('failed');
      await sandbox.clearFaults();
      expect(await colorsOf(nia)).toEqual(['Red']);
      // Meanwhile nia got Navy (a pick racing the run), still holding Red.
      await give(nia, await roleIdOf('Navy'));

      const outcome = await run('color-roles.generate');
      expect(outcome.result).toMatchObject({ ok: true, created: 0, deleted: 12 });
      expect(await colorsOf(nia)).toEqual(['Navy']);
      expect(await colorsOf(mo)).toEqual(['Crimson']);
    });
  });

  it('reset removes the roles, the panel and the palette', async () => {
    await setPanelChannel(rolesChannel);
    await run('color-roles.generate');
    await run('color-roles.post-panel');
    const reset = await run('color-roles.reset');
    expect(reset.result).toMatchObject({ ok: true, deleted: 12 });
    expect(baseline()).toBe(fixtureRoles);
    expect(await harness.database.db.select().from(colorGroups)).toHaveLength(0);
    expect(await harness.database.db.select().from(colors)).toHaveLength(0);
    const [panel] = await harness.database.db.select().from(colorPanels);
    expect(panel).toMatchObject({ channelId: rolesChannel, messageId: null });
    const channel = guildState(harness.sandbox, STATION).channels.find((c) => c.id === rolesChannel);
    expect(channel?.messages).toHaveLength(0);
  });
});
