import { defineConfig } from 'drizzle-kit';

// Migrations are generated (`pnpm --filter @spacecadet/db generate`) and committed; they are
// applied by `runMigrations`, never by `drizzle-kit push`. Columns are named explicitly in the
// schema (snake_case), so no casing option here or in the client.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/*.ts',
  out: './drizzle',
});
