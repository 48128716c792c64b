import { Events } from 'discord.js';
import type { WorkerDeps } from '../../deps.ts';
import { errorFields } from '../../logger.ts';
import { onGateway, type WorkerFeature } from '../feature.ts';
import { type MinuteClock, wallClock } from './clock.ts';
import { creditVoiceMinute } from './credit.ts';
import { VoiceRoster } from './roster.ts';

/**
 * Voice XP: members earn `voice_xp_per_minute` (× the server's multiplier × their boost) for
 * each full minute in a voice channel under core's rule (`voice-xp.ts`: not the AFK channel nor
 * a no-XP channel, not muted or deafened, not a bot, with company). Who is where is kept from
 * the gateway (`roster.ts`), so a restart starts counting everyone in voice from then on and
 * counts nothing for the time the worker was away; each minute's end credits the minute into
 * leveling's XP buffer, claimed per guild and minute so it is credited once (`credit.ts`). The
 * flush writes it with the chat XP, level-ups and rewards following.
 */
export function voiceXpFeatureWith(clock: MinuteClock) {
  const running = new WeakMap<WorkerDeps, { roster: VoiceRoster; stop: () => void; tick: Promise<void> }>();
  const rosterOf = (deps: WorkerDeps): VoiceRoster => {
    let run = running.get(deps);
    if (!run) {
      run = { roster: new VoiceRoster(clock.now), stop: () => {}, tick: Promise.resolve() };
      running.set(deps, run);
    }
    return run.roster;
  };
  return {
    name: 'voice-xp',
    events: [
      onGateway('raw', 'track voice states', (deps, packet) => rosterOf(deps).handle(packet)),
      onGateway(Events.ClientReady, 'start counting voice minutes', (deps) => {
        const roster = rosterOf(deps);
        const run = running.get(deps);
        if (!run) return;
        run.stop();
        run.stop = clock.everyMinute((minuteEnd) => {
          run.tick = creditVoiceMinute(deps, roster, minuteEnd)
            .then((credited) => {
              if (credited.members > 0)
                deps.logger.debug({ minuteEnd, ...credited }, 'voice minute credited');
            })
            .catch((error: unknown) => deps.logger.warn(errorFields(error), 'voice minute failed'));
          return run.tick;
        });
      }),
    ],
    // Features shut down in their order in features/index.ts: this one before leveling, whose
    // shutdown flushes the XP buffer with the last minute credited in it.
    async shutdown(deps: WorkerDeps) {
      const run = running.get(deps);
      if (!run) return;
      run.stop();
      await run.tick;
      running.delete(deps);
    },
  } satisfies WorkerFeature;
}

export const voiceXpFeature = voiceXpFeatureWith(wallClock);
