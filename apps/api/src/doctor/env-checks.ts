/**
 * The doctor's environment check: the API's own env reader (loadApiConfig) with each problem a ✗
 * line instead of a thrown error, and in production the refusals every process makes at start.
 */
import { EnvError, isProductionEnv, productionRefusals } from '@spacecadet/contract';
import { type ApiConfig, loadApiConfig } from '../env.ts';
import { type CheckLine, fail, pass } from './check.ts';

const capital = (text: string) => `${text.charAt(0).toUpperCase()}${text.slice(1)}`;

/**
 * `VARIABLE: <what is wrong>; <the fix>.` as a ✗ line: `VARIABLE <what is wrong>` and the fix. A
 * problem without a fix of its own (a reader's `API_PORT: must be a port number`) is its own fix.
 */
function problemLine(problem: string): CheckLine {
  const at = problem.indexOf(':');
  const variable = problem.slice(0, at);
  const text = problem.slice(at + 1).trim();
  const split = text.indexOf('; ');
  if (split < 0) return fail(variable, `${capital(text)}${/[.!]$/.test(text) ? '' : '.'}`);
  return fail(`${variable} ${text.slice(0, split)}`, capital(text.slice(split + 2)));
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
      const variable = refusal.slice(0, refusal.indexOf(':'));
      const index = lines.findIndex((l) => !l.ok && l.what.split(' ')[0] === variable);
      if (index >= 0) lines[index] = line;
      else lines.push(line);
    }
  }
  return { lines, config };
}
