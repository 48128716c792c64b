import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    distDir: string;
  }
}

/** Builds the dashboard once into a temp dir; every e2e file serves that build. */
export default async function setup(project: TestProject) {
  const root = fileURLToPath(new URL('..', import.meta.url));
  const outDir = await mkdtemp(join(tmpdir(), 'spacecadet-dashboard-e2e-'));
  await build({
    root,
    configFile: join(root, 'vite.config.ts'),
    // The config imports workspace TypeScript (server/env.ts → @spacecadet/contract), which
    // the default loader leaves to Node; the runner transforms it like the app's own code.
    configLoader: 'runner',
    logLevel: 'warn',
    build: { outDir, emptyOutDir: true },
  });
  project.provide('distDir', outDir);
  return async () => {
    await rm(outDir, { recursive: true, force: true });
  };
}
