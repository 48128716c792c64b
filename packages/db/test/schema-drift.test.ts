import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { cp, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { MIGRATIONS_FOLDER } from '../src/migrate.ts';

const packageDir = fileURLToPath(new URL('..', import.meta.url));

// Catches a schema edit committed without its migration: generating against a copy of the
// committed migrations must find nothing to do.
it('committed migrations match the schema', async () => {
  // drizzle-kit only accepts an --out relative to the cwd, so copy into the package's
  // (git-ignored) node_modules.
  const out = join('node_modules', `.drift-${randomBytes(4).toString('hex')}`);
  try {
    await cp(MIGRATIONS_FOLDER, join(packageDir, out), { recursive: true });
    const { stdout } = await promisify(execFile)(
      'pnpm',
      [
        'exec',
        'drizzle-kit',
        'generate',
        '--dialect',
        'postgresql',
        '--schema',
        './src/schema/*.ts',
        '--out',
        out,
      ],
      { cwd: packageDir },
    );
    expect(stdout).toMatch(/No schema changes/);
  } finally {
    await rm(join(packageDir, out), { recursive: true, force: true });
  }
});
