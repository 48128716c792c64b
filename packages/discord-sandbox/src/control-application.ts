/**
 * `/_sandbox/application`: the application's Developer Portal settings a real admin gets wrong,
 * its OAuth2 redirect URIs and its flags (the privileged intents), so tests can break it as they
 * do. `POST /_sandbox/reset` restores the fixture's.
 */
import type { FastifyInstance } from 'fastify';
import { intentsOfFlags } from './application.ts';
import { applicationObject } from './application-object.ts';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';

const MAX_REDIRECT_URIS = 10;

function redirectUrisProblem(value: unknown): string | null {
  const rule = `"redirect_uris" must be a list of at most ${MAX_REDIRECT_URIS} http(s) URLs`;
  if (!Array.isArray(value) || value.length > MAX_REDIRECT_URIS) return rule;
  const bad = value.find(
    (uri) => typeof uri !== 'string' || !URL.canParse(uri) || !/^https?:$/.test(new URL(uri).protocol),
  );
  return bad === undefined ? null : `${rule}; ${JSON.stringify(bad)} is not one`;
}

export function registerApplicationControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  /**
   * `{ redirect_uris?, flags? }`: registers exactly these redirect URIs (no loopback leniency from
   * then on) and sets the flags, the privileged intents IDENTIFY may ask for following them.
   * Answers the application as `GET /applications/@me` does.
   */
  app.patch<{ Body: { redirect_uris?: unknown; flags?: unknown } | undefined }>(
    '/_sandbox/application',
    async (req, reply) => {
      const body = req.body ?? {};
      if (body.redirect_uris !== undefined) {
        const problem = redirectUrisProblem(body.redirect_uris);
        if (problem) return controlError(reply, 400, 'invalid_request', problem);
      }
      const { flags } = body;
      if (
        flags !== undefined &&
        !(Number.isInteger(flags) && (flags as number) >= 0 && (flags as number) < 2 ** 31)
      ) {
        return controlError(reply, 400, 'invalid_request', '"flags" must be a whole number of at least 0');
      }
      if (body.redirect_uris !== undefined) {
        state.application.redirect_uris = [...(body.redirect_uris as string[])];
        state.application.loopback_redirects = false;
      }
      if (flags !== undefined) {
        state.application.flags = flags as number;
        state.application.privileged_intents = intentsOfFlags(flags as number);
      }
      return applicationObject(state);
    },
  );
}
