export { type CreateDbOptions, createDb, type Db, type DbHandle, type DbTransaction } from './client.ts';
export { databaseNameOf, dropDatabase, ensureDatabase, redactUrl, withDatabase } from './database.ts';
export { MIGRATIONS_FOLDER, type MigrationStatus, migrationStatus, runMigrations } from './migrate.ts';
export * from './schema.ts';
export * as schema from './schema.ts';
