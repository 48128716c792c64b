import { PermissionFlagsBits } from 'discord-api-types/v10';
import {
  BOT_ROLE_PERMISSIONS,
  defaultFixture,
  SANDBOX_IDS,
  type Sandbox,
  type SandboxChannel,
  startSandbox,
} from '../src/index.ts';
import { control } from './helpers.ts';

const { guilds, channels, roles } = SANDBOX_IDS;
export const ONBOARDING_PATH = `/guilds/${guilds.station}/onboarding`;
export const PROMPT_ID = '1067461047608422473';
export const KEPT_OPTION_ID = '1067461047608422476';

/** A sandbox whose bot role also has MANAGE_GUILD (the fixture leaves it out), as an admin would give it. */
export async function startManaging(fixture = defaultFixture()): Promise<Sandbox> {
  const sandbox = await startSandbox({ port: 0, fixture });
  const permissions = (BigInt(BOT_ROLE_PERMISSIONS) | PermissionFlagsBits.ManageGuild).toString();
  await control(sandbox, 'PATCH', `/guilds/${guilds.station}/roles/${roles.stationBot}`, { permissions });
  return sandbox;
}

/** A single-select prompt: option Crew (new, no id) and option Management (id sent by the client). */
export function question(over: Record<string, unknown> = {}) {
  return {
    id: PROMPT_ID,
    title: 'What brings you aboard?',
    single_select: true,
    required: false,
    in_onboarding: true,
    type: 0,
    options: [
      {
        title: 'Crew',
        description: 'Work the station',
        role_ids: [roles.stationCrew],
        channel_ids: [channels.general],
        emoji_name: '🚀',
      },
      { id: KEPT_OPTION_ID, title: 'Management', role_ids: [roles.stationManagers], channel_ids: [] },
    ],
    ...over,
  };
}

/** Station plus enough text channels to enable onboarding; `closed` of them deny @everyone SEND_MESSAGES. */
export function roomyFixture(closed = 0) {
  const fixture = defaultFixture();
  const station = fixture.guilds.find((g) => g.id === guilds.station);
  const general = station?.channels.find((c) => c.id === channels.general);
  if (!station || !general) throw new Error('fixture changed');
  for (let i = 0; i < 4; i += 1) {
    const deny = i < closed ? PermissionFlagsBits.SendMessages.toString() : '0';
    const extra: SandboxChannel = {
      ...structuredClone(general),
      id: `30000000000000009${i}`,
      name: `deck-${i}`,
      permission_overwrites: [{ id: guilds.station, type: 0, allow: '0', deny }],
    };
    station.channels.push(extra);
  }
  return { fixture, ids: station.channels.filter((c) => c.type === 0).map((c) => c.id) };
}
