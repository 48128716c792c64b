import { defaultFixture } from '@spacecadet/discord-sandbox';
import { GatewayIntentBits } from 'discord.js';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { WORKER_INTENTS } from '../src/discord-client.ts';
import { startWorker } from '../src/worker.ts';
import { type Harness, startHarness } from './helpers.ts';

describe('gateway intents', () => {
  let harness: Harness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('asks Discord only for Guilds, Server Members, Guild Messages, Guild Message Reactions and Guild Voice States', async () => {
    harness = await startHarness();
    const worker = await startWorker(harness.config());
    try {
      const presence = (await (await fetch(`${harness.sandbox.url}/_sandbox/presence`)).json()) as {
        sessions: Array<{ intents: number; connected: boolean }>;
      };
      const wanted =
        GatewayIntentBits.Guilds |
        GatewayIntentBits.GuildMembers |
        GatewayIntentBits.GuildMessages |
        GatewayIntentBits.GuildMessageReactions |
        GatewayIntentBits.GuildVoiceStates;
      expect(presence.sessions.filter((s) => s.connected).map((s) => s.intents)).toEqual([wanted]);
      expect(WORKER_INTENTS.reduce((a, b) => a | b, 0)).toBe(wanted);
    } finally {
      await worker.close();
    }
  });

  it('on 4014 (Server Members intent off in the Developer Portal) logs what to enable and where, and fails to start', async () => {
    const fixture = defaultFixture();
    fixture.application.privileged_intents = 0;
    harness = await startHarness(fixture);
    const lines: Array<{ level: number; msg: string }> = [];
    const logger = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const started = startWorker(harness.config({ DISCORD_CLIENT_ID: fixture.application.id }), { logger });
    await expect(started).rejects.toThrow(/privileged intent Server Members Intent is not enabled/);
    const refusal = lines.find((line) => line.msg.startsWith('Discord refused the gateway connection'));
    expect(refusal?.level).toBe(50);
    expect(refusal?.msg).toBe(
      `Discord refused the gateway connection (close 4014, Disallowed intent(s)): the privileged intent Server Members Intent is not enabled for this application; enable it under Privileged Gateway Intents at https://discord.com/developers/applications/${fixture.application.id}/bot, then start the worker again.`,
    );
  });
});
