/**
 * The doctor's environment check: the API's own env reader (loadApiConfig) with each problem a ✗
 * line instead of a thrown error, and in production the refusals every process makes at start.
 */
import { EnvError, isProductionEnv, productionRefusals } from '@spacecadet/contract';
import { type ApiConfig, loadApiConfig } from '../env.ts';
import { type CheckLine, fail, pass } from './check.ts';

/** `VARIABLE: sentence` as a ✗ line: the variable, and the sentence as its fix. */
function problemLine(problem: string): CheckLine {
  const at = problem.indexOf(':');
  const fix = problem.slice(at + 1).trim();
  return fail(
    problem.slice(0, at),
    `${fix.charAt(0).toUpperCase()}${fix.slice(1)}${/[.!]$/.test(fix) ? '' : '.'}`,
  );
}

/**
 * The lines of the environment, and the config the other checks use (null when the API could
 * not start with it at all). The production refusals are reported apart, so that a demo secret
 * still lets the database, Redis and Discord be checked.
 */
export function checkEnvironment(env: NodeJS.ProcessEnv = process.env): {
  lines: CheckLine[];
  config: ApiConfig | null;
} {
  const production = isProductionEnv(env);
  const lines: CheckLine[] = [];
  let config: ApiConfig | null = null;
  try {
    config = loadApiConfig(production ? { ...env, NODE_ENV: 'development' } : env);
    lines.push(pass('environment: every variable the API reads is set and valid'));
  } catch (error) {
    if (!(error instanceof EnvError)) throw error;
    lines.push(...error.problems.map(problemLine));
  }
  if (production) {
    const refusals = productionRefusals(env, { botToken: true, clientSecret: true, clientId: 'required' });
    if (refusals.length === 0) {
      lines.push(
        pass(
          'production: SESSION_SECRET is private, the public URLs are https, the Discord credentials your own',
        ),
      );
    }
    for (const refusal of refusals) {
      // Named once: the reader may have refused the same variable already.
      const line = problemLine(refusal);
      const index = lines.findIndex((l) => !l.ok && l.what === line.what);
      if (index >= 0) lines[index] = line;
      else lines.push(line);
    }
  }
  return { lines, config };
}
