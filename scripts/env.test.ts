import { EnvError } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { loadBaselineClientEnv, loadBenchEnv } from './env.ts';

describe('loadBenchEnv', () => {
  it('has the documented defaults, blank values counting as unset', () => {
    const defaults = loadBenchEnv({ BENCH_CLICK_SECONDS: '' });
    expect(defaults).toEqual({
      api: { connections: 50, seconds: 5, rounds: 3 },
      click: { seconds: 8, warmup: 20 },
      memory: { smallGuilds: 10, guilds: 500, members: 100, repeats: 3 },
      xp: { burst: 90_000, rounds: 3 },
      refreshGuilds: 1_000,
      scale: { guilds: [1_000, 10_000, 50_000], members: 20 },
      lighthouseRuns: 3,
      chromePaths: [],
    });
  });

  it('reads every setting', () => {
    const env = loadBenchEnv({
      BENCH_API_SECONDS: '8',
      BENCH_CLICK_SECONDS: '2',
      BENCH_MEMORY_GUILDS: '50',
      BENCH_LIGHTHOUSE_RUNS: '1',
      BENCH_SCALE_GUILDS: '100, 1000',
      CHROMIUM_PATH: '/opt/chromium',
      BENCH_DASHBOARD_DIST: '/tmp/dist',
      BENCH_XP_BURST: '20000',
      BENCH_XP_ROUNDS: '1',
      BENCH_CPU_PROF: '/tmp/profiles',
      BENCH_REFRESH_GUILDS: '150',
    });
    expect(env.api.seconds).toBe(8);
    expect(env.click.seconds).toBe(2);
    expect(env.memory.guilds).toBe(50);
    expect(env.lighthouseRuns).toBe(1);
    expect(env.scale.guilds).toEqual([100, 1_000]);
    expect(env.chromePaths).toEqual(['/opt/chromium']);
    expect(env.dashboardDist).toBe('/tmp/dist');
    expect(env.xp).toEqual({ burst: 20_000, rounds: 1 });
    expect(env.cpuProfDir).toBe('/tmp/profiles');
    expect(env.refreshGuilds).toBe(150);
  });

  it('names every bad setting instead of running with NaN', () => {
    const read = () => loadBenchEnv({ BENCH_CLICK_SECONDS: 'many', BENCH_MEMORY_REPEATS: '0' });
    expect(read).toThrow(EnvError);
    expect(read).toThrow(
      /BENCH_CLICK_SECONDS: must be a whole number of at least 1, got "many"[\s\S]*BENCH_MEMORY_REPEATS/,
    );
  });

  it('wants two or more ascending sizes for the scale benchmark', () => {
    for (const bad of ['1000', '10000,1000', '1000,ten', '0,10']) {
      expect(() => loadBenchEnv({ BENCH_SCALE_GUILDS: bad })).toThrow(
        `BENCH_SCALE_GUILDS: must be two or more ascending whole numbers, comma-separated (e.g. 1000,10000), got "${bad}"`,
      );
    }
  });
});

describe('loadBaselineClientEnv', () => {
  it('needs what a benchmark hands its baseline child', () => {
    const env = {
      BENCH_INTENTS: '513',
      DISCORD_API_BASE: 'http://127.0.0.1:4100/api',
      DISCORD_BOT_TOKEN: 't',
    };
    expect(loadBaselineClientEnv(env)).toEqual({
      intents: 513,
      apiBase: env.DISCORD_API_BASE,
      botToken: 't',
    });
    expect(() => loadBaselineClientEnv({})).toThrow(
      /BENCH_INTENTS[\s\S]*DISCORD_API_BASE[\s\S]*DISCORD_BOT_TOKEN/,
    );
  });

  it('runs the shards it is given, all below the count', () => {
    const env = { BENCH_INTENTS: '513', DISCORD_API_BASE: 'http://x/api', DISCORD_BOT_TOKEN: 't' };
    expect(loadBaselineClientEnv({ ...env, BENCH_SHARD_IDS: '1', BENCH_SHARD_COUNT: '2' }).shards).toEqual({
      ids: [1],
      count: 2,
    });
    expect(() => loadBaselineClientEnv({ ...env, BENCH_SHARD_IDS: '2', BENCH_SHARD_COUNT: '2' })).toThrow(
      'BENCH_SHARD_IDS: must be shard numbers below BENCH_SHARD_COUNT 2',
    );
  });
});
