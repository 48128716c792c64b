/**
 * The route table's typing (what the API's handlers and the dashboard's client rely on): each
 * route's params, query, body and success response types are its zod schemas' types, and a
 * route without one of them types it as undefined. Checked by the compiler (`expectTypeOf`).
 */
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import {
  type GuildConfig,
  type GuildParams,
  type InstallQuery,
  type JobAccepted,
  type LevelingRoleParams,
  type MemberSearchQuery,
  type MemberSummary,
  type PutConfigBody,
  type RouteBody,
  type RouteDef,
  type RouteName,
  type RouteParams,
  type RouteQuery,
  type RouteResponse,
  routes,
  type WriteReceipt,
} from '../src/index.ts';

describe('route types', () => {
  it('types a read by its params and response schemas, with no query or body', () => {
    expectTypeOf<RouteParams<'getConfig'>>().toEqualTypeOf<z.input<typeof GuildParams>>();
    expectTypeOf<RouteQuery<'getConfig'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteBody<'getConfig'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteResponse<'getConfig'>>().toEqualTypeOf<z.output<typeof GuildConfig>>();
  });

  it("types a write's body by what the client sends (the schema's input)", () => {
    expectTypeOf<RouteBody<'putConfig'>>().toEqualTypeOf<z.input<typeof PutConfigBody>>();
    expectTypeOf<RouteResponse<'putConfig'>>().toEqualTypeOf<z.output<typeof WriteReceipt>>();
  });

  it('types a query by its schema', () => {
    expectTypeOf<RouteQuery<'searchMembers'>>().toEqualTypeOf<z.input<typeof MemberSearchQuery>>();
    expectTypeOf<RouteResponse<'searchMembers'>>().toEqualTypeOf<{
      members: z.output<typeof MemberSummary>[];
    }>();
    expectTypeOf<RouteQuery<'install'>>().toEqualTypeOf<z.input<typeof InstallQuery>>();
  });

  it('answers a job route with the job id, and a 204 route with nothing', () => {
    expectTypeOf<RouteResponse<'syncLevelingRoles'>>().toEqualTypeOf<z.output<typeof JobAccepted>>();
    expectTypeOf<RouteResponse<'syncLevelingRoles'>>().toEqualTypeOf<{ job_id: string }>();
    expectTypeOf<RouteResponse<'deleteLevelingRole'>>().toEqualTypeOf<undefined>();
    expectTypeOf<RouteParams<'deleteLevelingRole'>>().toEqualTypeOf<z.input<typeof LevelingRoleParams>>();
  });

  it('keeps the literal method, path and auth of each route', () => {
    expectTypeOf(routes.getConfig.method).toEqualTypeOf<'GET'>();
    expectTypeOf(routes.getConfig.path).toEqualTypeOf<'/api/guilds/:guildId/config'>();
    expectTypeOf(routes.getConfig.auth).toEqualTypeOf<'guild'>();
    expectTypeOf(routes.botInGuild.auth).toEqualTypeOf<'public'>();
    expectTypeOf(routes.putConfig.history).toEqualTypeOf<'config.update'>();
  });

  it('names every route of the table, each a route definition', () => {
    expectTypeOf<RouteName>().toEqualTypeOf<keyof typeof routes>();
    expectTypeOf<'getConfig'>().toExtend<RouteName>();
    expectTypeOf<'noSuchRoute'>().not.toExtend<RouteName>();
    expectTypeOf(routes).toExtend<Record<RouteName, RouteDef>>();
  });
});
