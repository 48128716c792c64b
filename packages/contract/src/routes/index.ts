/**
 * The route table: every HTTP route of the API, its auth, schemas and statuses. The API
 * registers and documents its routes from it and the dashboard's client is typed by it. Each
 * feature's routes live in its folder (`<feature>/routes.ts`, beside its `schemas.ts`); the table
 * assembles them in one list.
 */
import type { z } from 'zod';
import { adminRoutes } from '../admin/routes.ts';
import { authRoutes } from '../auth/routes.ts';
import { colorRoleRoutes } from '../color-roles/routes.ts';
import { ErrorBody } from '../common.ts';
import { configRoutes } from '../config/routes.ts';
import { guildDataRoutes } from '../guild-data/routes.ts';
import { healthRoutes } from '../health/routes.ts';
import { historyRoutes } from '../history/routes.ts';
import { jobRoutes } from '../jobs/routes.ts';
import { linkedRoleRoutes } from '../leveling/linked-roles.ts';
import { levelingRoutes } from '../leveling/routes.ts';
import { memberDataRoutes } from '../member-data/routes.ts';
import { personalityRoleRoutes } from '../personality-roles/routes.ts';
import { reactionRoleRoutes } from '../reaction-roles/routes.ts';
import { roleMenuRoutes } from '../role-menus/routes.ts';
import type { RouteDef } from '../route-definition.ts';
import { setupRoutes } from '../setup/routes.ts';
import { tempRoleRoutes } from '../temp-roles/routes.ts';
import { welcomeRoutes } from '../welcome/routes.ts';

export type { ErrorStatus, RouteAuth, RouteDef } from '../route-definition.ts';

export const routes = {
  ...healthRoutes,
  ...authRoutes,
  ...jobRoutes,
  ...configRoutes,
  ...reactionRoleRoutes,
  ...roleMenuRoutes,
  ...colorRoleRoutes,
  ...personalityRoleRoutes,
  ...levelingRoutes,
  ...linkedRoleRoutes,
  ...historyRoutes,
  ...adminRoutes,
  ...setupRoutes,
  ...memberDataRoutes,
  ...guildDataRoutes,
  ...tempRoleRoutes,
  ...welcomeRoutes,
} as const satisfies Record<string, RouteDef>;

export type Routes = typeof routes;
export type RouteName = keyof Routes;

/** The error statuses a route answers (its `errors`), each with the one error body. */
export function errorResponses(def: RouteDef): Record<number, typeof ErrorBody> {
  return Object.fromEntries(def.errors.map((status) => [status, ErrorBody]));
}

type ParamsOf<R> = R extends { params: z.ZodObject } ? z.input<R['params']> : undefined;
type QueryOf<R> = R extends { query: z.ZodObject } ? z.input<R['query']> : undefined;
type BodyOf<R> = R extends { body: z.ZodType } ? z.input<R['body']> : undefined;
type SuccessStatus<R extends RouteDef> = Extract<keyof R['responses'], 200 | 201 | 202 | 204>;
export type RouteParams<N extends RouteName> = ParamsOf<Routes[N]>;
export type RouteQuery<N extends RouteName> = QueryOf<Routes[N]>;
export type RouteBody<N extends RouteName> = BodyOf<Routes[N]>;
export type RouteResponse<N extends RouteName> = Routes[N]['responses'][SuccessStatus<
  Routes[N]
>] extends infer S
  ? S extends z.ZodType
    ? z.output<S>
    : undefined
  : never;

/** Fills `:name` segments: routePath(routes.getConfig, { guildId: '1' }) -> /api/guilds/1/config. */
export function routePath(def: RouteDef, params?: Record<string, string | number>): string {
  return def.path.replace(/:([A-Za-z_]+)/g, (_, name: string) => {
    const value = params?.[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${def.path}`);
    return encodeURIComponent(String(value));
  });
}

/** The success schema of a route (the first 2xx with a body), for parsing responses. */
export function successSchema(def: RouteDef): z.ZodType | null {
  for (const [status, schema] of Object.entries(def.responses)) {
    if (Number(status) >= 200 && Number(status) < 300) return schema;
  }
  return null;
}
