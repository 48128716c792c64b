// First: the repo's .env is read before any module looks at the environment.
import '@spacecadet/contract/env-file';
import { formatLine } from './check.ts';
import { runDoctor } from './run.ts';

/** `pnpm doctor` / `docker compose run --rm api doctor`: prints each check, exits 1 on any ✗. */
const lines = await runDoctor();
for (const line of lines) process.stdout.write(`${formatLine(line)}\n`);
process.exitCode = lines.every((line) => line.ok) ? 0 : 1;
