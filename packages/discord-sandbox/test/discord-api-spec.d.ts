// discord-api-spec ships its zod schemas as plain JS (its `types` point at a .js file).
declare module 'discord-api-spec/zod' {
  import type { ZodMiniType } from 'zod/mini';

  const schemas: Record<string, ZodMiniType>;
  export = schemas;
}
