import { type RouteName, routes } from '@spacecadet/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { GUILDS, type Harness, signIn, startHarness, USERS } from './harness.ts';
import { SAMPLE_BODIES, sampleRequest } from './samples.ts';

/**
 * The route table in @spacecadet/contract is the truth about each route's answers: OpenAPI is
 * generated from it, and what the API answers must be in it. property.test.ts checks every
 * status its random requests get; these are the answers random requests rarely reach.
 */
let h: Harness;
let ada: string;
let operations: Record<string, Record<string, { responses: Record<string, unknown> }>>;

beforeAll(async () => {
  h = await startHarness();
  ada = await signIn(h, USERS.ada);
  operations = (await h.app.inject({ url: '/api/docs/json' })).json<{ paths: typeof operations }>().paths;
});
afterAll(async () => {
  await h?.close();
});

function documentedInOpenApi(name: RouteName): string[] {
  const def = routes[name];
  const operation = operations[def.path.replace(/:([A-Za-z_]+)/g, '{$1}')]?.[def.method.toLowerCase()];
  return Object.keys(operation?.responses ?? {}).sort();
}

describe('OpenAPI statuses', () => {
  it('list, for every route, exactly its success statuses, its error statuses and a default for failures of ours', () => {
    for (const name of Object.keys(routes) as RouteName[]) {
      // Registered by the preview routes' branch (samples.ts).
      const def = routes[name];
      const expected = [...Object.keys(def.responses), ...def.errors.map(String), 'default'].sort();
      expect(documentedInOpenApi(name), name).toEqual(expected);
    }
  });

  it('include the 401 a refused sign-in code gets', async () => {
    const response = await h.app.inject({
      method: 'POST',
      url: routes.exchangeCode.path,
      payload: { code: 'not-a-code-discord-gave', code_verifier: 'v'.repeat(43) },
    });
    expect(response.statusCode, response.body).toBe(401);
    expect(documentedInOpenApi('exchangeCode')).toContain('401');
  });

  it('include the 409 a reward level already taken gets, when adding and when editing', async () => {
    const create = (level: number) =>
      h.app.inject({
        ...sampleRequest('createLevelingRole', GUILDS.station),
        headers: { authorization: ada },
        payload: { ...SAMPLE_BODIES.createLevelingRole, role_name: `Level ${level}`, level_required: level },
      });
    expect((await create(7)).statusCode).toBe(201);
    const second = await create(8);
    expect(second.statusCode).toBe(201);
    const duplicate = await create(7);
    expect(duplicate.statusCode, duplicate.body).toBe(409);
    expect(documentedInOpenApi('createLevelingRole')).toContain('409');

    const edit = await h.app.inject({
      method: 'PUT',
      url: `/api/guilds/${GUILDS.station}/leveling/roles/${second.json<{ id: number }>().id}`,
      headers: { authorization: ada },
      payload: { level_required: 7 },
    });
    expect(edit.statusCode, edit.body).toBe(409);
    expect(documentedInOpenApi('updateLevelingRole')).toContain('409');
  });
});
