import {
  CHOOSE_A_CATEGORY,
  type JobName,
  jobIdFor,
  PERSONALITY_QUESTION_TYPES,
  type PersonalityRolesState,
  routePath,
  routes,
} from '@spacecadet/contract';
import { BOT_PERMISSION_BITS, botPermissionsFor, DEFAULT_BOT_PERMISSIONS } from '@spacecadet/core';
import { personalityCleanup, personalityOptions, personalityQuestions } from '@spacecadet/db';
import { BOT_ROLE_PERMISSIONS } from '@spacecadet/discord-sandbox';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invitePermissions } from '../src/services/invite.ts';
import { DISABLE_FIRST_MESSAGE } from '../src/services/personality-roles.ts';
import { CHANNELS, GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';

/**
 * What a newcomer to personality roles tripped on: Initialize with the
 * categories they chose, a disabled category's roles deleted on request, the counts a reset
 * deletes, and an invite that asks for what the enabled features need.
 */
let h: Harness;
let ada: string;
const guildId = GUILDS.station;
const path = (name: keyof typeof routes, extra: Record<string, string> = {}) =>
  routePath(routes[name], { guildId, ...extra });

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
});
afterAll(async () => {
  await h?.close();
});

function send(method: 'GET' | 'POST' | 'PUT', url: string, payload?: object) {
  return h.app.inject({ method, url, headers: { authorization: ada }, ...(payload ? { payload } : {}) });
}
const getState = async () => (await send('GET', path('getPersonalityRoles'))).json<PersonalityRolesState>();
const jobState = (name: JobName) => h.app.services.queue.forShard(0).getJobState(jobIdFor(name, guildId));
const question = async (type: string) => (await getState()).questions.find((q) => q.question_type === type);

async function optionsOf(type: string) {
  return h.database.db
    .select({ id: personalityOptions.id, roleId: personalityOptions.roleId })
    .from(personalityOptions)
    .innerJoin(personalityQuestions, eq(personalityQuestions.id, personalityOptions.questionId))
    .where(and(eq(personalityOptions.guildId, guildId), eq(personalityQuestions.questionType, type)));
}

describe('Initialize with the chosen categories', () => {
  it('refuses an empty choice and unknown categories, storing nothing', async () => {
    for (const [categories, message] of [
      [[], CHOOSE_A_CATEGORY],
      [['zodiac', 'astrology'], /Each category must be one of: age_range/],
      [['zodiac', 'zodiac'], /at most once/],
    ] as const) {
      const response = await send('POST', path('initPersonalityRoles'), {
        channel_id: CHANNELS.roles,
        categories,
      });
      expect(response.statusCode, response.body).toBe(400);
      expect(response.json().message).toMatch(message);
    }
    expect((await getState()).configured).toBe(false);
  });

  it('seeds every category, only the chosen ones enabled', async () => {
    const init = await send('POST', path('initPersonalityRoles'), {
      channel_id: CHANNELS.roles,
      categories: ['zodiac', 'pronouns'],
    });
    expect(init.statusCode, init.body).toBe(200);
    const state = await getState();
    expect(state.configured).toBe(true);
    expect(state.questions.map((q) => q.question_type)).toEqual([...PERSONALITY_QUESTION_TYPES]);
    expect(state.questions.filter((q) => q.is_enabled).map((q) => q.question_type)).toEqual([
      'zodiac',
      'pronouns',
    ]);
    expect(state.questions.every((q) => q.created_roles === 0 && !q.message_posted && !q.in_onboarding)).toBe(
      true,
    );
  });
});

describe("a disabled category's roles", () => {
  const roleIds = (count: number) => Array.from({ length: count }, (_, i) => `3100000000000001${10 + i}`);

  it('answers how many roles, messages and Onboarding questions each category has in Discord', async () => {
    const options = await optionsOf('zodiac');
    for (const [index, option] of options.entries()) {
      await h.database.db
        .update(personalityOptions)
        .set({ roleId: roleIds(options.length)[index] })
        .where(eq(personalityOptions.id, option.id));
    }
    await h.database.db
      .update(personalityQuestions)
      .set({ messageId: '410000000000000001', messageChannelId: CHANNELS.roles, onboardingPromptId: '1' })
      .where(and(eq(personalityQuestions.guildId, guildId), eq(personalityQuestions.questionType, 'zodiac')));
    expect(await question('zodiac')).toMatchObject({
      created_roles: options.length,
      message_posted: true,
      in_onboarding: true,
    });
  });

  it('are not deleted while the category is enabled', async () => {
    const response = await send('POST', path('deletePersonalityQuestionRoles', { question_type: 'zodiac' }));
    expect(response.statusCode, response.body).toBe(400);
    expect(response.json()).toEqual({ error: 'invalid_input', message: DISABLE_FIRST_MESSAGE });
    expect((await optionsOf('zodiac')).every((o) => o.roleId !== null)).toBe(true);
    expect(await jobState('personality-roles.delete-roles')).toBe('unknown');
  });

  it('once disabled, leave the options and go to the cleanup list for the job, once', async () => {
    const count = (await optionsOf('zodiac')).length;
    const toggle = await send('PUT', path('togglePersonalityQuestion', { question_type: 'zodiac' }), {
      enabled: false,
    });
    expect(toggle.statusCode, toggle.body).toBe(200);
    // Disabling alone keeps the roles (the admin may keep them) and queues the refresh that
    // removes the message.
    expect(toggle.json().created_roles).toBe(count);
    expect(await jobState('personality-roles.refresh')).toBe('waiting');

    const response = await send('POST', path('deletePersonalityQuestionRoles', { question_type: 'zodiac' }));
    expect(response.statusCode, response.body).toBe(202);
    expect(response.json()).toEqual({ job_id: jobIdFor('personality-roles.delete-roles', guildId) });
    expect(await jobState('personality-roles.delete-roles')).toBe('waiting');
    expect((await optionsOf('zodiac')).every((o) => o.roleId === null)).toBe(true);
    expect((await question('zodiac'))?.created_roles).toBe(0);
    const queued = await h.database.db
      .select({ kind: personalityCleanup.kind, targetId: personalityCleanup.targetId })
      .from(personalityCleanup)
      .where(eq(personalityCleanup.guildId, guildId));
    expect(queued.map((e) => e.targetId).sort()).toEqual(roleIds(count));
    expect(new Set(queued.map((e) => e.kind))).toEqual(new Set(['role']));

    // Asked again: nothing more to move.
    const again = await send('POST', path('deletePersonalityQuestionRoles', { question_type: 'zodiac' }));
    expect(again.statusCode, again.body).toBe(202);
    expect(await h.database.db.$count(personalityCleanup)).toBe(count);
  });

  it('an unknown category is a 404', async () => {
    const response = await send(
      'POST',
      path('deletePersonalityQuestionRoles', { question_type: 'astrology' }),
    );
    expect(response.statusCode).toBe(404);
  });
});

describe('the invite asks for what the features need', () => {
  const permissionsOf = async (query: string) => {
    const response = await h.app.inject({ url: `/api/invite-url${query}` });
    expect(response.statusCode, response.body).toBe(200);
    return new URL(response.json<{ url: string }>().url).searchParams.get('permissions');
  };
  const withManageServer = (BigInt(DEFAULT_BOT_PERMISSIONS) | BOT_PERMISSION_BITS.MANAGE_GUILD).toString();

  it('asks for the base features, plus Manage Server for Onboarding when asked or switched on', async () => {
    expect(DEFAULT_BOT_PERMISSIONS).toBe('268561472');
    expect(await permissionsOf('')).toBe(DEFAULT_BOT_PERMISSIONS);
    expect(await permissionsOf(`?guildId=${guildId}`)).toBe(DEFAULT_BOT_PERMISSIONS);
    expect(await permissionsOf(`?guildId=${guildId}&features=onboarding`)).toBe(withManageServer);
    expect(withManageServer).toBe(
      botPermissionsFor(['color-roles', 'personality-roles', 'leveling', 'reaction-roles', 'onboarding']),
    );

    const on = await send('PUT', path('setPersonalityOnboarding'), { enabled: true });
    expect(on.statusCode, on.body).toBe(202);
    expect(await permissionsOf(`?guildId=${guildId}`)).toBe(withManageServer);
    // The redirect asks for the same.
    const install = await h.app.inject({ url: `/install?guildId=${guildId}` });
    expect(install.statusCode).toBe(302);
    expect(new URL(install.headers.location as string).searchParams.get('permissions')).toBe(
      withManageServer,
    );
    // Another server without the switch does not.
    expect(await permissionsOf(`?guildId=${GUILDS.orbit}`)).toBe(DEFAULT_BOT_PERMISSIONS);
  });

  it('refuses an unknown feature', async () => {
    const response = await h.app.inject({ url: `/api/invite-url?features=onboarding,teleport` });
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(/features must be a comma-separated list of/);
  });

  it("asks for exactly the operator's BOT_PERMISSIONS when set", async () => {
    const config = { ...h.config, botPermissions: '8' };
    expect(await invitePermissions(config, h.database.db, guildId, ['onboarding'])).toBe('8');
  });

  it("answers the bot's server-wide permissions, which lack Manage Server in the sandbox", async () => {
    const response = await send('GET', path('getBotPermissions'));
    expect(response.statusCode, response.body).toBe(200);
    const granted = BigInt(response.json<{ permissions: string }>().permissions);
    expect(granted & BigInt(BOT_ROLE_PERMISSIONS)).toBe(BigInt(BOT_ROLE_PERMISSIONS));
    expect(granted & BOT_PERMISSION_BITS.MANAGE_GUILD).toBe(0n);
  });
});
