import { EnvError } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DATABASE_URL, loadMigrateEnv } from '../src/env.ts';

describe('loadMigrateEnv', () => {
  it('defaults DATABASE_URL when unset or blank', () => {
    expect(loadMigrateEnv({})).toEqual({ databaseUrl: DEFAULT_DATABASE_URL });
    expect(loadMigrateEnv({ DATABASE_URL: ' ' })).toEqual({ databaseUrl: DEFAULT_DATABASE_URL });
  });

  it('accepts postgres:// and postgresql:// URLs', () => {
    for (const url of ['postgres://u:p@db:5432/x', 'postgresql://db/x'])
      expect(loadMigrateEnv({ DATABASE_URL: url })).toEqual({ databaseUrl: url });
  });

  it('rejects anything else, naming the variable without echoing the value', () => {
    for (const url of ['mysql://u:secret@db/x', 'not a url']) {
      const read = () => loadMigrateEnv({ DATABASE_URL: url });
      expect(read).toThrow(EnvError);
      expect(read).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
      expect(read).not.toThrow(/secret/);
    }
  });
});
