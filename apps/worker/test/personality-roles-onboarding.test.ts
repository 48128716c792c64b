import { PERSONALITY_CATALOG } from '@spacecadet/core';
import {
  loadPersonalityQuestions,
  retirePersonalitySetup,
  type StoredPersonalityQuestion,
  seedPersonalityCatalog,
} from '@spacecadet/db/queries/personality-roles';
import { personalityConfigs, personalityOptions, personalityQuestions } from '@spacecadet/db/schema';
import { BOT_ROLE_PERMISSIONS } from '@spacecadet/discord-sandbox';
import { type APIGuildOnboardingPrompt, PermissionFlagsBits } from 'discord.js';
import { and, eq } from 'drizzle-orm';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ONBOARDING_FORBIDDEN } from '../src/features/personality-roles/onboarding.ts';
import { formErrorText } from '../src/features/personality-roles/onboarding-prompts.ts';
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

const { roles: ids, users } = SANDBOX_IDS;
const ONBOARDING = `/guilds/${STATION}/onboarding`;
/** An admin's own prompt, made before ours: it must come through every run untouched. */
const ADMIN_PROMPT = {
  id: '1067461047608422473',
  title: 'What brings you aboard?',
  single_select: true,
  required: true,
  in_onboarding: true,
  type: 0,
  options: [{ title: 'Crew', role_ids: [ids.stationCrew], channel_ids: [], emoji_name: '🚀' }],
};
const optionCount = (type: string) =>
  PERSONALITY_CATALOG.find((q) => q.questionType === type)?.options.length ?? 0;

describe('personality questions in Discord Onboarding', () => {
  let harness: Harness;
  let worker: RunningWorker;
  let jobs: ReturnType<typeof jobQueue>;

  const db = () => harness.database.db;
  const sandbox = () => control(harness.sandbox);
  const run = async (name: Parameters<typeof jobs.add>[0]) => jobs.finished((await jobs.add(name)).id ?? '');
  const onboarding = () => guildState(harness.sandbox, STATION).onboarding;
  const requests = async () =>
    (await fetch(`${harness.sandbox.url}/_sandbox/requests`)).json() as Promise<
      Array<{ seq: number; method: string; path: string }>
    >;
  const lastSeq = async () => (await requests()).at(-1)?.seq ?? 0;
  const writesSince = async (since: number) =>
    (await requests()).filter((request) => request.seq > since && request.method !== 'GET');
  /** The bot's role with these permissions, as an admin sets them in Server Settings. */
  const botPermissions = async (permissions: bigint) => {
    const response = await fetch(
      `${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${ids.stationBot}`,
      {
        method: 'PATCH',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ permissions: permissions.toString() }),
      },
    );
    expect(response.status, await response.text()).toBe(200);
  };
  const managing = BigInt(BOT_ROLE_PERMISSIONS) | PermissionFlagsBits.ManageGuild;

  /** What the API does: init, then the switch. */
  const init = () =>
    db().transaction(async (tx) => {
      await tx
        .insert(personalityConfigs)
        .values({ guildId: STATION, assignChannelId: SANDBOX_IDS.channels.roles, configured: true })
        .onConflictDoUpdate({ target: personalityConfigs.guildId, set: { configured: true } });
      await seedPersonalityCatalog(tx, STATION);
    });
  const setSwitch = (enabled: boolean) =>
    db()
      .update(personalityConfigs)
      .set({ onboardingEnabled: enabled })
      .where(eq(personalityConfigs.guildId, STATION));
  const setEnabled = (type: string, enabled: boolean) =>
    db()
      .update(personalityQuestions)
      .set({ isEnabled: enabled })
      .where(and(eq(personalityQuestions.guildId, STATION), eq(personalityQuestions.questionType, type)));
  const question = async (type: string): Promise<StoredPersonalityQuestion> => {
    const found = (await loadPersonalityQuestions(db(), STATION)).find((q) => q.questionType === type);
    if (!found) throw new Error(`no ${type} question`);
    return found;
  };
  const promptOf = (q: StoredPersonalityQuestion): APIGuildOnboardingPrompt | undefined =>
    onboarding().prompts.find((p) => p.id === q.onboardingPromptId);
  /** Set up, roles generated, the admin's prompt in place and the switch on. */
  const publish = async () => {
    await init();
    expect((await run('personality-roles.generate')).state).toBe('completed');
    await sandbox().botRest('PUT', ONBOARDING, { prompts: [ADMIN_PROMPT] });
    await setSwitch(true);
    return run('personality-roles.onboarding');
  };

  beforeAll(async () => {
    harness = await startHarness();
    worker = await startWorker(harness.config());
    jobs = jobQueue(harness);
  });
  beforeEach(() => botPermissions(managing));
  afterEach(async () => {
    await botPermissions(managing);
    await retirePersonalitySetup(db(), STATION);
    expect((await run('personality-roles.reset')).state).toBe('completed');
    await sandbox().botRest('PUT', ONBOARDING, { prompts: [] });
  });
  afterAll(async () => {
    await jobs?.close();
    await worker?.close();
    await harness.close();
  });

  it('adds a prompt per enabled question with its roles, keeps the admin prompt, and writes once', async () => {
    await init();
    await setEnabled('mbti', false);
    await setSwitch(true);
    // No role yet: nothing to ask, and the admin is told why.
    const early = await run('personality-roles.onboarding');
    expect(early.result).toMatchObject({
      ok: true,
      warnings: [expect.stringMatching(/run Generate Roles first/)],
    });
    expect(onboarding().prompts).toEqual([]);

    const outcome = await publish();
    expect(outcome.state).toBe('completed');
    expect(outcome.result).toMatchObject({ ok: true, summary: 'Discord Onboarding: 9 questions added.' });
    const [admin, ...ours] = onboarding().prompts;
    expect(admin).toMatchObject({
      ...ADMIN_PROMPT,
      options: [{ title: 'Crew', role_ids: [ids.stationCrew] }],
    });
    expect(ours).toHaveLength(9);
    for (const q of await loadPersonalityQuestions(db(), STATION)) {
      const prompt = promptOf(q);
      if (!q.isEnabled) {
        expect(prompt, q.questionType).toBeUndefined();
        continue;
      }
      expect(prompt, q.questionType).toMatchObject({
        title: q.title,
        single_select: !q.isMultiSelect,
        required: false,
        in_onboarding: true,
        type: 0,
      });
      expect(prompt?.options.map((o) => [o.title, o.role_ids, o.emoji.name])).toEqual(
        q.options.map((o) => [o.label, [o.roleId], o.emoji]),
      );
    }

    const since = await lastSeq();
    const again = await run('personality-roles.onboarding');
    expect(again.result).toMatchObject({ summary: 'Discord Onboarding: 9 questions already up to date.' });
    expect(await writesSince(since)).toEqual([]);
  });

  it('gives a member who answers the prompts the roles of their answers', async () => {
    await publish();
    const zodiac = await question('zodiac');
    const hobbies = await question('hobbies');
    const leo = promptOf(zodiac)?.options.find((o) => o.title === 'Leo');
    const picked = promptOf(hobbies)?.options.slice(0, 2) ?? [];
    const response = await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/onboarding/answers`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ user_id: users.nia, option_ids: [leo?.id, ...picked.map((o) => o.id)] }),
    });
    expect(response.status, await response.text()).toBe(200);
    const wanted = [
      zodiac.options.find((o) => o.label === 'Leo')?.roleId,
      ...hobbies.options.slice(0, 2).map((o) => o.roleId),
    ];
    expect(memberRoles(harness.sandbox, STATION, users.nia)).toEqual(expect.arrayContaining(wanted));
  });

  it('turning the switch off removes only our prompts; a disabled question loses its prompt', async () => {
    await publish();
    await setEnabled('zodiac', false);
    const toggled = await run('personality-roles.refresh');
    expect(toggled.result).toMatchObject({ summary: '1 Onboarding question updated.' });
    expect(onboarding().prompts).toHaveLength(10);
    expect((await question('zodiac')).onboardingPromptId).toBeNull();

    await setSwitch(false);
    const off = await run('personality-roles.onboarding');
    expect(off.result).toMatchObject({ summary: 'Discord Onboarding: 9 questions removed.' });
    expect(onboarding().prompts.map((p) => p.id)).toEqual([ADMIN_PROMPT.id]);
    const stored = await loadPersonalityQuestions(db(), STATION);
    expect(stored.every((q) => q.onboardingPromptId === null)).toBe(true);
    // Off and nothing of ours left: the refresh does not even read the Onboarding.
    const since = await lastSeq();
    await run('personality-roles.refresh');
    expect((await requests()).filter((r) => r.seq > since && r.path.endsWith('/onboarding'))).toEqual([]);
  });

  it('one refresh puts a recreated role in the prompt; the next writes nothing', async () => {
    await publish();
    const before = await question('pronouns');
    const deleted = before.options[0]?.roleId;
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${deleted}`, { method: 'DELETE' });
    const refreshed = await run('personality-roles.refresh');
    expect(refreshed.result).toMatchObject({ summary: '1 role created, 1 Onboarding question updated.' });
    const after = await question('pronouns');
    const recreated = after.options[0]?.roleId;
    expect(recreated).not.toBe(deleted);
    expect(promptOf(after)?.id).toBe(promptOf(before)?.id);
    expect(promptOf(after)?.options[0]?.role_ids).toEqual([recreated]);

    const since = await lastSeq();
    expect((await run('personality-roles.refresh')).result).toMatchObject({
      summary: 'Everything was in place.',
    });
    expect(await writesSince(since)).toEqual([]);
  });

  it('truncates an answer longer than Discord allows and leaves out one whose role is gone', async () => {
    await init();
    await run('personality-roles.generate');
    const gaming = await question('gaming_platform');
    await db()
      .update(personalityOptions)
      .set({ label: 'A'.repeat(80) })
      .where(eq(personalityOptions.id, gaming.options[0]?.id ?? 0));
    await fetch(`${harness.sandbox.url}/_sandbox/guilds/${STATION}/roles/${gaming.options[1]?.roleId}`, {
      method: 'DELETE',
    });
    await setSwitch(true);
    const outcome = await run('personality-roles.onboarding');
    expect(outcome.result).toMatchObject({ warnings: [expect.stringMatching(/^1 option has no role yet/)] });
    const options = promptOf(await question('gaming_platform'))?.options ?? [];
    expect(options).toHaveLength(optionCount('gaming_platform') - 1);
    expect(options[0]?.title).toBe('A'.repeat(50));
  });

  it('adopts the prompts of a run killed before it stored their ids, instead of adding them twice', async () => {
    await publish();
    await db().update(personalityQuestions).set({ onboardingPromptId: null });
    const since = await lastSeq();
    const again = await run('personality-roles.onboarding');
    expect(again.result).toMatchObject({ summary: 'Discord Onboarding: 10 questions already up to date.' });
    expect(await writesSince(since)).toEqual([]);
    expect(onboarding().prompts).toHaveLength(11);
    const stored = await loadPersonalityQuestions(db(), STATION);
    expect(stored.every((q) => promptOf(q) !== undefined)).toBe(true);
  });

  it("refuses to pass Discord's 15 prompts and names the field Discord refuses", async () => {
    await init();
    await run('personality-roles.generate');
    const many = Array.from({ length: 6 }, (_, i) => ({ ...ADMIN_PROMPT, id: `10674610476084224${70 + i}` }));
    await sandbox().botRest('PUT', ONBOARDING, { prompts: many });
    await setSwitch(true);
    const outcome = await run('personality-roles.onboarding');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toMatch(/at most 15 questions: this server has 6 of its own and would get 10/);
    expect(onboarding().prompts).toHaveLength(6);
    const sent = [{ id: '1', title: 'Zodiac Sign', options: [] }];
    expect(
      formErrorText(
        'Invalid Form Body\nprompts[0].options[1].title[BASE_TYPE_BAD_LENGTH]: Must be between 1 and 50 in length.',
        sent,
      ),
    ).toBe('"Zodiac Sign" options[1].title: Must be between 1 and 50 in length.');
  });

  it('without Manage Server the job fails with a sentence the admin can act on', async () => {
    await init();
    await run('personality-roles.generate');
    await botPermissions(BigInt(BOT_ROLE_PERMISSIONS));
    await setSwitch(true);
    const outcome = await run('personality-roles.onboarding');
    expect(outcome.state).toBe('failed');
    expect(outcome.error).toBe(`forbidden: ${ONBOARDING_FORBIDDEN}`);
    // The refresh still repairs the rest, and says what it could not do.
    const refreshed = await run('personality-roles.refresh');
    expect(refreshed.state).toBe('completed');
    expect(refreshed.result).toMatchObject({ summary: `Onboarding not updated: ${ONBOARDING_FORBIDDEN}` });
  });

  it('reset removes our prompts and keeps the admin prompt', async () => {
    await publish();
    await retirePersonalitySetup(db(), STATION);
    const reset = await run('personality-roles.reset');
    expect(reset.result).toMatchObject({
      ok: true,
      summary: expect.stringMatching(/ and 10 Onboarding questions deleted\.$/),
    });
    expect(onboarding().prompts.map((p) => p.id)).toEqual([ADMIN_PROMPT.id]);
    const since = await lastSeq();
    expect((await run('personality-roles.reset')).result).toMatchObject({ deleted: 0 });
    expect(await writesSince(since)).toEqual([]);
  });
});
