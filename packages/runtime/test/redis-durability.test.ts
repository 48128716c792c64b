import { randomBytes } from 'node:crypto';
import { testRedis } from '@spacecadet/db/testing';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  assessRedisDurability,
  checkRedisDurability,
  parseRedisInfo,
  type RedisDurabilityFacts,
  readRedisDurabilityFacts,
} from '../src/redis-durability.ts';

const INFO_AOF_ON = '# Persistence\r\naof_enabled:1\r\nrdb_changes_since_last_save:0\r\n';
const INFO_AOF_OFF = '# Persistence\r\naof_enabled:0\r\n';
const INFO_MEMORY = (policy: string) => `# Memory\r\nused_memory:1000\r\nmaxmemory_policy:${policy}\r\n`;
const config = (appendonly: string | null, save: string | null, policy: string | null) => ({
  appendonly,
  save,
  'maxmemory-policy': policy,
});

const NO_PERSISTENCE = expect.stringMatching(/^persistence is off/);
const EVICTION = expect.stringMatching(/^maxmemory-policy is allkeys-lru/);

describe('assessRedisDurability', () => {
  it.each<[string, RedisDurabilityFacts, string[], string[]]>([
    ['AOF on', { config: config('yes', '', 'noeviction'), info: null }, [], []],
    ['RDB snapshots only', { config: config('no', '3600 1 300 100', 'noeviction'), info: null }, [], []],
    ['both on', { config: config('yes', '60 1', 'noeviction'), info: null }, [], []],
    ['no persistence', { config: config('no', '', 'noeviction'), info: null }, [NO_PERSISTENCE], []],
    ['save of blanks', { config: config('no', '  ', 'noeviction'), info: null }, [NO_PERSISTENCE], []],
    ['evicting policy', { config: config('yes', '', 'allkeys-lru'), info: null }, [EVICTION], []],
    ['both wrong', { config: config('no', '', 'allkeys-lru'), info: null }, [EVICTION, NO_PERSISTENCE], []],
    [
      'CONFIG refused, INFO says AOF on and noeviction',
      { config: {}, info: `${INFO_AOF_ON}${INFO_MEMORY('noeviction')}` },
      [],
      [],
    ],
    [
      'CONFIG refused, INFO says AOF off: snapshots unknown',
      { config: config(null, null, null), info: `${INFO_AOF_OFF}${INFO_MEMORY('noeviction')}` },
      [],
      ['save'],
    ],
    [
      'CONFIG refused, INFO shows an evicting policy',
      { config: {}, info: `${INFO_AOF_OFF}${INFO_MEMORY('allkeys-lru')}` },
      [EVICTION],
      ['save'],
    ],
    ['CONFIG and INFO refused', { config: {}, info: null }, [], ['maxmemory-policy', 'appendonly', 'save']],
    [
      'only save readable, and it is off',
      { config: config(null, '', null), info: null },
      [],
      ['maxmemory-policy', 'appendonly'],
    ],
    ['only save readable, and it is on', { config: config(null, '900 1', 'noeviction'), info: null }, [], []],
  ])('%s', (_name, facts, problems, unchecked) => {
    expect(assessRedisDurability(facts)).toEqual({ problems, unchecked });
  });

  it('prefers CONFIG over INFO when both answered', () => {
    const facts = { config: config('yes', '', 'noeviction'), info: INFO_AOF_OFF };
    expect(assessRedisDurability(facts).problems).toEqual([]);
  });

  it('parses INFO lines, skipping section headers', () => {
    const fields = parseRedisInfo(`${INFO_AOF_ON}${INFO_MEMORY('volatile-lru')}`);
    expect(fields.get('aof_enabled')).toBe('1');
    expect(fields.get('maxmemory_policy')).toBe('volatile-lru');
    expect(fields.has('# Persistence')).toBe(false);
  });
});

describe('against the real Redis', () => {
  let url: string;
  let admin: Redis;
  const users: string[] = [];
  const password = randomBytes(12).toString('hex');

  beforeAll(async () => {
    const redis = await testRedis();
    url = redis.url;
    await redis.close();
    admin = new Redis(url);
  });
  afterAll(async () => {
    // The ACL users made below are the only change to the shared server: remove them.
    for (const user of users) await admin.call('ACL', 'DELUSER', user);
    admin.disconnect();
  });

  /** A connection as a fresh ACL user with only the given command rules. */
  async function connectionAs(rules: string[]): Promise<Redis> {
    const user = `spacecadet_test_${randomBytes(5).toString('hex')}`;
    users.push(user);
    await admin.call('ACL', 'SETUSER', user, 'on', `>${password}`, '~*', ...rules);
    // No ready check: it runs INFO, which one of these users may not.
    const redis = new Redis(url, { username: user, password, lazyConnect: true, enableReadyCheck: false });
    await redis.connect();
    return redis;
  }

  function logCollector() {
    const lines: Array<{ level: string; message: string }> = [];
    return {
      lines,
      warn: (_fields: object, message: string) => lines.push({ level: 'warn', message }),
      info: (_fields: object, message: string) => lines.push({ level: 'info', message }),
    };
  }

  it('reads what CONFIG GET answers, and judges it', async () => {
    const facts = await readRedisDurabilityFacts(admin);
    const direct = async (name: string) => ((await admin.config('GET', name)) as string[])[1];
    expect(facts.config).toEqual({
      appendonly: await direct('appendonly'),
      save: await direct('save'),
      'maxmemory-policy': await direct('maxmemory-policy'),
    });
    expect(facts.info).toContain('aof_enabled:');
    const persisted = facts.config.appendonly === 'yes' || facts.config.save?.trim() !== '';
    const verdict = assessRedisDurability(facts);
    expect(verdict.unchecked).toEqual([]);
    expect(verdict.problems.some((problem) => problem.startsWith('persistence is off'))).toBe(!persisted);
  });

  it('falls back to INFO when CONFIG is refused, and warns that it could not check', async () => {
    const redis = await connectionAs(['+@all', '-config']);
    try {
      await expect(redis.config('GET', 'save')).rejects.toThrow(/NOPERM/);
      const facts = await readRedisDurabilityFacts(redis);
      expect(facts.config).toEqual({ appendonly: null, save: null, 'maxmemory-policy': null });
      expect(facts.info).toContain('maxmemory_policy:');
      const log = logCollector();
      const verdict = await checkRedisDurability(redis, log);
      // The policy still comes from INFO; `save` is not in INFO.
      expect(verdict?.unchecked).not.toContain('maxmemory-policy');
      expect(log.lines).toHaveLength(1);
      expect(log.lines[0]?.level).toBe('warn');
    } finally {
      redis.disconnect();
    }
  });

  it('never throws when both CONFIG and INFO are refused', async () => {
    const redis = await connectionAs(['+@all', '-config', '-info']);
    try {
      const log = logCollector();
      const verdict = await checkRedisDurability(redis, log);
      expect(verdict).toEqual({ problems: [], unchecked: ['maxmemory-policy', 'appendonly', 'save'] });
      expect(log.lines).toEqual([{ level: 'warn', message: expect.stringMatching(/^Could not check/) }]);
    } finally {
      redis.disconnect();
    }
  });
});
