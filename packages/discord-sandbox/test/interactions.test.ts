import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';
import { eventually } from './discordjs-helpers.ts';
import { bot, clickWithoutBot, control } from './helpers.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0, interactionTimeoutMs: 1500 });
});
afterEach(async () => {
  await sandbox.close();
});

const { channels } = SANDBOX_IDS;

const callback = (id: string, token: string, body: unknown) =>
  fetch(`${sandbox.apiBase}/v10/interactions/${id}/${token}/callback`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });

describe('interaction callbacks on the wire', () => {
  it('gives an interaction an id whose snowflake carries the time of the click', async () => {
    const before = Date.now();
    const { record, pending } = await clickWithoutBot(sandbox);
    const after = Date.now();
    const createdAt = Number((BigInt(record.id) >> 22n) + 1420070400000n);
    expect(createdAt).toBeGreaterThanOrEqual(before);
    expect(createdAt).toBeLessThanOrEqual(after);
    expect(createdAt).toBe(record.created_ms);
    await pending;
  });

  it('logs the REST calls it answers, a refused late callback included', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    await pending;
    await callback(record.id, record.token, { type: 4, data: { content: 'too late' } });
    const log = (await control(sandbox, 'GET', '/requests')).body as Array<{
      seq: number;
      method: string;
      path: string;
      status: number;
    }>;
    expect(log.map(({ method, path, status }) => ({ method, path, status }))).toEqual([
      { method: 'POST', path: `/channels/${channels.roles}/messages`, status: 200 },
      { method: 'POST', path: `/interactions/${record.id}/${record.token}/callback`, status: 404 },
    ]);
    expect(log[1]?.seq).toBe((log[0]?.seq ?? 0) + 1);
  });

  it('accepts one callback, rejects a second with 40060 and reports the answer', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    const first = await callback(record.id, record.token, { type: 4, data: { content: 'ok', flags: 64 } });
    expect(first.status).toBe(204);
    const second = await callback(record.id, record.token, { type: 4, data: { content: 'again' } });
    expect(await second.json()).toEqual({
      code: 40060,
      message: 'Interaction has already been acknowledged.',
    });
    expect((await pending).body).toMatchObject({ responded: true, response: { type: 4 } });
  });

  it('rejects invalid components in a reply with 50035 under data', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    const res = await callback(record.id, record.token, {
      type: 4,
      data: {
        content: 'x',
        components: [
          { type: 1, components: [{ type: 2, style: 1, label: 'x', custom_id: 'y'.repeat(101) }] },
        ],
      },
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { code: number; errors: { data: unknown } };
    expect(body.code).toBe(50035);
    expect(body.errors.data).toBeDefined();
    expect((await pending).body).toMatchObject({ responded: false });
  });

  it('answers 10062 after the deadline, yet follow-ups work until the token expires', async () => {
    const { record, pending } = await clickWithoutBot(sandbox);
    expect((await pending).body).toMatchObject({ responded: false });
    const late = await callback(record.id, record.token, { type: 5 });
    expect(((await late.json()) as { code: number }).code).toBe(10062);
    const followUp = () =>
      fetch(`${sandbox.apiBase}/v10/webhooks/${SANDBOX_IDS.app}/${record.token}?wait=true`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ content: 'later', flags: 64 }),
      });
    expect((await followUp()).status).toBe(200);
    await control(sandbox, 'POST', '/clock', { advance_ms: 15 * 60 * 1000 + 1 });
    const expired = await followUp();
    expect(((await expired.json()) as { code: number }).code).toBe(10015);
  });
});

describe("a select menu as a member's client shows it", () => {
  const select = {
    type: 1,
    components: [
      {
        type: 3,
        custom_id: 'pick',
        min_values: 1,
        max_values: 1,
        options: [
          { label: 'A', value: 'a' },
          { label: 'B', value: 'b' },
        ],
      },
    ],
  };
  const choose = (messageId: string, values: string[]) =>
    control(sandbox, 'POST', '/interactions', {
      guild_id: SANDBOX_IDS.guilds.station,
      channel_id: channels.roles,
      message_id: messageId,
      user_id: SANDBOX_IDS.users.nia,
      custom_id: 'pick',
      values,
    });
  /** Answers the member's next interaction as given, once it arrives. */
  const answerNext = async (body: unknown) => {
    const seen = sandbox.state().interactions.length;
    const record = await eventually(() => sandbox.state().interactions[seen]);
    await callback(record.id, record.token, body);
  };

  it('sends no interaction for the options already shown as chosen, until the message is drawn again', async () => {
    const posted = await bot(sandbox, 'POST', `/channels/${channels.roles}/messages`, {
      components: [select],
    });
    const messageId = (posted.body as { id: string }).id;
    // A private answer leaves the message as it was: the client still shows A chosen.
    const first = choose(messageId, ['a']);
    await answerNext({ type: 4, data: { content: 'You picked A', flags: 64 } });
    expect((await first).status).toBe(200);
    const again = await choose(messageId, ['a']);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ error: 'already_chosen' });
    // Another option is a change the client sends.
    const other = choose(messageId, ['b']);
    await answerNext({ type: 7, data: { components: [select] } });
    expect((await other).status).toBe(200);
    // UPDATE_MESSAGE drew the message again: B is no longer shown as chosen.
    const b = choose(messageId, ['b']);
    await answerNext({ type: 4, data: { content: 'B again', flags: 64 } });
    expect((await b).status).toBe(200);
    // A REST edit draws it again for everyone too.
    expect((await choose(messageId, ['b'])).status).toBe(409);
    await bot(sandbox, 'PATCH', `/channels/${channels.roles}/messages/${messageId}`, {
      components: [select],
    });
    const afterEdit = choose(messageId, ['b']);
    await answerNext({ type: 6 });
    expect((await afterEdit).status).toBe(200);
  });
});
