/**
 * What a route handler is handed and must return, typed from the contract's route definition:
 * parsed params, query and body (the schemas' output), a session unless the route is public, a
 * history note on recorded routes; the success body, nothing for a 204, a Location for a
 * redirect. And the queue the API holds is one `@spacecadet/queue` can add guild jobs to.
 * Checked by the compiler (`expectTypeOf`).
 */
import type {
  GuildConfig,
  GuildJobPayload,
  GuildParams,
  InstallQuery,
  JobName,
  PutConfigBody,
  routes,
} from '@spacecadet/contract';
import type { GuildJobQueueLike } from '@spacecadet/queue/guild-jobs';
import { describe, expectTypeOf, it } from 'vitest';
import type { z } from 'zod';
import type { HistoryNote } from '../src/history/recorder.ts';
import type { RouteContext, RouteResult } from '../src/routes/define.ts';
import type { GuildJobQueue } from '../src/services/jobs.ts';
import type { SessionContext } from '../src/services/sessions.ts';

type Routes = typeof routes;

describe("a route handler's context", () => {
  it('holds the parsed params, and no query or body where the route has none', () => {
    type Context = RouteContext<Routes['getConfig']>;
    expectTypeOf<Context['params']>().toEqualTypeOf<z.output<typeof GuildParams>>();
    expectTypeOf<Context['query']>().toEqualTypeOf<undefined>();
    expectTypeOf<Context['body']>().toEqualTypeOf<undefined>();
    expectTypeOf<Context['history']>().toEqualTypeOf<undefined>();
  });

  it("holds a write's parsed body and its history note", () => {
    type Context = RouteContext<Routes['putConfig']>;
    expectTypeOf<Context['body']>().toEqualTypeOf<z.output<typeof PutConfigBody>>();
    expectTypeOf<Context['history']>().toEqualTypeOf<HistoryNote>();
  });

  it('holds the parsed query', () => {
    expectTypeOf<RouteContext<Routes['install']>['query']>().toEqualTypeOf<z.output<typeof InstallQuery>>();
  });

  it('holds a session on a signed-in route, and maybe none on a public one', () => {
    expectTypeOf<RouteContext<Routes['getConfig']>['session']>().toEqualTypeOf<SessionContext>();
    expectTypeOf<RouteContext<Routes['botInGuild']>['session']>().toEqualTypeOf<SessionContext | null>();
  });
});

describe("a route handler's result", () => {
  it('is the success body of the route', () => {
    expectTypeOf<RouteResult<Routes['getConfig']>>().toEqualTypeOf<z.output<typeof GuildConfig>>();
    expectTypeOf<RouteResult<Routes['syncLevelingRoles']>>().toEqualTypeOf<{ job_id: string }>();
    expectTypeOf<RouteResult<Routes['botInGuild']>>().toEqualTypeOf<{ inGuild: boolean }>();
  });

  it('is nothing for a 204 route, and the Location for a redirect', () => {
    expectTypeOf<RouteResult<Routes['deleteLevelingRole']>>().toEqualTypeOf<void>();
    expectTypeOf<RouteResult<Routes['install']>>().toEqualTypeOf<string>();
  });
});

describe("the API's job queue", () => {
  it('takes the contract’s job names and payload, as addGuildJob hands them', () => {
    expectTypeOf<GuildJobQueue>().toExtend<GuildJobQueueLike>();
    expectTypeOf<GuildJobQueueLike['add']>().parameter(0).toEqualTypeOf<JobName>();
    expectTypeOf<GuildJobQueueLike['add']>().parameter(1).toEqualTypeOf<GuildJobPayload>();
  });
});
