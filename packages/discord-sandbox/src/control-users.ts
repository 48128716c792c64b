/** `/_sandbox/*` controls of Discord accounts: new users, their DM setting, expiring their tokens. */
import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { controlError } from './control-error.ts';
import { makeUser } from './fixture.ts';

/** Discord's rule for a (new-style) username. */
const USERNAME = /^[a-z0-9_.]{2,32}$/;
const USERNAME_RULE = '"username" must be 2 to 32 characters of a-z, 0-9, _ and .';

/** Makes users, sets whether they accept the bot's DMs, expires their OAuth tokens. */
export function registerUserControlRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  const { state } = ctx;

  // A new Discord account (a person, or another app's bot), not in any guild until
  // `PUT /_sandbox/guilds/:g/members/:u` adds them: tests that need many members make them here.
  app.post<{ Body: { username?: unknown; global_name?: unknown; bot?: unknown } | undefined }>(
    '/_sandbox/users',
    async (req, reply) => {
      const { username, global_name: globalName, bot = false } = req.body ?? {};
      if (typeof username !== 'string' || !USERNAME.test(username)) {
        return controlError(reply, 400, 'invalid_request', USERNAME_RULE);
      }
      if (
        globalName !== undefined &&
        globalName !== null &&
        (typeof globalName !== 'string' || globalName.length > 32)
      ) {
        return controlError(
          reply,
          400,
          'invalid_request',
          '"global_name" must be text of at most 32 characters',
        );
      }
      if (typeof bot !== 'boolean')
        return controlError(reply, 400, 'invalid_request', '"bot" must be true or false');
      const taken = [...state.users.values()].some((user) => !user.bot && user.username === username);
      // Discord's usernames are unique among people (bots keep their own namespace).
      if (taken && !bot) return controlError(reply, 409, 'username_taken', 'That username is taken');
      const user = makeUser(state.snowflake(), username, globalName ?? null, null, bot);
      state.users.set(user.id, user);
      return { id: user.id, username: user.username, global_name: user.global_name, bot };
    },
  );

  // A user's privacy setting for DMs from the bot: `{ accept: false }` makes the bot's DMs to
  // them fail with Discord's 403 50007, `{ accept: true }` lets them through again.
  app.put<{ Params: { userId: string }; Body: { accept?: unknown } | undefined }>(
    '/_sandbox/users/:userId/dms',
    async (req, reply) => {
      if (!state.users.has(req.params.userId))
        return controlError(reply, 404, 'unknown_user', 'No such user');
      const accept = req.body?.accept;
      if (typeof accept !== 'boolean') {
        return controlError(reply, 400, 'invalid_request', '"accept" must be true or false');
      }
      if (accept) state.dmRefusals.delete(req.params.userId);
      else state.dmRefusals.add(req.params.userId);
      return { user_id: req.params.userId, accept };
    },
  );

  app.post<{ Body: { access_token?: string; user_id?: string } | undefined }>(
    '/_sandbox/tokens/expire',
    async (req, reply) => {
      const { access_token, user_id } = req.body ?? {};
      if (!access_token && !user_id) {
        return controlError(reply, 400, 'invalid_request', 'Give "access_token" or "user_id"');
      }
      let expired = 0;
      for (const grant of state.accessTokens.values()) {
        if (grant.access_token === access_token || grant.user_id === user_id) {
          grant.expires_at = 0;
          expired += 1;
        }
      }
      return { expired };
    },
  );
}
