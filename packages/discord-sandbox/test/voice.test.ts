import { GatewayIntentBits } from 'discord.js';
import { describe, expect, it } from 'vitest';
import { SANDBOX_IDS } from '../src/index.ts';
import { nextPacket, readyClient, sandboxPerTest } from './discordjs-helpers.ts';
import { bot, control } from './helpers.ts';

const { sandbox, keep } = sandboxPerTest();
const { guilds, channels, users, roles } = SANDBOX_IDS;
const WITH_VOICE = [
  GatewayIntentBits.Guilds,
  GatewayIntentBits.GuildMembers,
  GatewayIntentBits.GuildVoiceStates,
];

const voice = (body: Record<string, unknown>) => control(sandbox(), 'POST', '/voice', body);

describe('POST /_sandbox/voice', () => {
  it('dispatches VOICE_STATE_UPDATE as Discord does, joining, muting and leaving', async () => {
    const client = keep(await readyClient(sandbox(), undefined, { intents: WITH_VOICE }));
    const station = client.guilds.cache.get(guilds.station);
    expect(station?.afkChannelId).toBe(channels.stationAfk);

    const joined = nextPacket(client, 'VOICE_STATE_UPDATE');
    const answer = await voice({
      guild_id: guilds.station,
      user_id: users.ada,
      channel_id: channels.stationLounge,
    });
    expect(answer.status).toBe(200);
    const d = await joined;
    expect(d).toMatchObject({
      guild_id: guilds.station,
      channel_id: channels.stationLounge,
      user_id: users.ada,
      deaf: false,
      mute: false,
      self_deaf: false,
      self_mute: false,
      self_video: false,
      suppress: false,
      request_to_speak_timestamp: null,
      member: { user: { id: users.ada } },
    });
    expect(typeof d.session_id).toBe('string');

    const deafened = nextPacket(client, 'VOICE_STATE_UPDATE');
    await voice({
      guild_id: guilds.station,
      user_id: users.ada,
      channel_id: channels.stationLounge,
      self_deaf: true,
    });
    // Deafening yourself mutes you too; the session stays the same.
    expect(await deafened).toMatchObject({ self_deaf: true, self_mute: true, session_id: d.session_id });
    expect(station?.voiceStates.cache.get(users.ada)?.selfDeaf).toBe(true);

    const state = (await control(sandbox(), 'GET', '/state')).body as {
      guilds: Array<{
        id: string;
        afk_channel_id?: string;
        voice_states?: Array<{ user_id: string; channel_id: string }>;
      }>;
    };
    const dumped = state.guilds.find((g) => g.id === guilds.station);
    expect(dumped?.afk_channel_id).toBe(channels.stationAfk);
    expect(dumped?.voice_states).toMatchObject([{ user_id: users.ada, channel_id: channels.stationLounge }]);

    const left = nextPacket(client, 'VOICE_STATE_UPDATE');
    expect((await voice({ guild_id: guilds.station, user_id: users.ada, channel_id: null })).body).toEqual({
      voice_state: null,
    });
    expect(await left).toMatchObject({ channel_id: null, user_id: users.ada });
    const after = (await control(sandbox(), 'GET', '/state')).body as typeof state;
    expect(after.guilds.find((g) => g.id === guilds.station)?.voice_states).toEqual([]);
  });

  it('sends the voice states in GUILD_CREATE to a session that connects later', async () => {
    await voice({
      guild_id: guilds.station,
      user_id: users.mo,
      channel_id: channels.stationBriefing,
      self_mute: true,
    });
    const client = keep(await readyClient(sandbox(), undefined, { intents: WITH_VOICE }));
    const mo = client.guilds.cache.get(guilds.station)?.voiceStates.cache.get(users.mo);
    expect(mo?.channelId).toBe(channels.stationBriefing);
    expect(mo?.selfMute).toBe(true);
  });

  it('sends nothing to a session without the GuildVoiceStates intent', async () => {
    const client = keep(await readyClient(sandbox()));
    const seen: string[] = [];
    client.on('raw', (packet: { t: string }) => seen.push(packet.t));
    await voice({ guild_id: guilds.station, user_id: users.nia, channel_id: channels.stationLounge });
    // Events reach a session in order: once this member update arrived, the voice one would have too.
    const updated = nextPacket(client, 'GUILD_MEMBER_UPDATE');
    await control(
      sandbox(),
      'PUT',
      `/guilds/${guilds.station}/members/${users.nia}/roles/${roles.stationManagers}`,
    );
    await updated;
    expect(seen).not.toContain('VOICE_STATE_UPDATE');
  });

  it('disconnects a member who leaves the guild', async () => {
    const client = keep(await readyClient(sandbox(), undefined, { intents: WITH_VOICE }));
    await voice({ guild_id: guilds.station, user_id: users.nia, channel_id: channels.stationLounge });
    const left = nextPacket(client, 'VOICE_STATE_UPDATE', (d) => d.channel_id === null);
    await control(sandbox(), 'DELETE', `/guilds/${guilds.station}/members/${users.nia}`);
    expect(await left).toMatchObject({ user_id: users.nia, guild_id: guilds.station });
  });

  it("lets the bot post in a voice channel's text chat, not in a category", async () => {
    expect(
      (await bot(sandbox(), 'POST', `/channels/${channels.stationLounge}/messages`, { content: 'hi' }))
        .status,
    ).toBe(200);
    const category = await bot(sandbox(), 'POST', `/channels/${channels.stationCategory}/messages`, {
      content: 'hi',
    });
    expect([category.status, (category.body as { code: number }).code]).toEqual([400, 50008]);
  });

  it('refuses unknown guilds, users, members and channels, and channels that are not voice', async () => {
    const station = guilds.station;
    const cases: Array<[Record<string, unknown>, number, string]> = [
      [{ guild_id: '1', user_id: users.ada, channel_id: channels.stationLounge }, 404, 'unknown_guild'],
      [{ guild_id: station, user_id: '1', channel_id: channels.stationLounge }, 404, 'unknown_user'],
      [{ guild_id: station, user_id: users.rex, channel_id: channels.stationLounge }, 404, 'unknown_member'],
      [{ guild_id: station, user_id: users.ada, channel_id: '1' }, 404, 'unknown_channel'],
      [{ guild_id: station, user_id: users.ada, channel_id: channels.orbitHangar }, 404, 'unknown_channel'],
      [{ guild_id: station, user_id: users.ada, channel_id: channels.general }, 400, 'not_voice_channel'],
      [{ guild_id: station, user_id: users.ada }, 400, 'invalid_request'],
      [
        { guild_id: station, user_id: users.ada, channel_id: channels.stationLounge, self_mute: 'yes' },
        400,
        'invalid_request',
      ],
    ];
    for (const [body, status, error] of cases) {
      const answer = await voice(body);
      expect([answer.status, (answer.body as { error: string }).error], JSON.stringify(body)).toEqual([
        status,
        error,
      ]);
    }
  });
});
