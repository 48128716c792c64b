import { describe, expect, it } from 'vitest';
import { chromiumLaunchOptions, TEST_DASHBOARD_URL, testStackEnv } from '../src/index.ts';

describe('testStackEnv', () => {
  const database = { url: 'postgres://db/test_1' };
  const redis = { url: 'redis://cache:6379', prefix: 't_1' };

  it("points an app at the test's database, Redis prefix and Discord", () => {
    const env = testStackEnv(database, redis, { apiBase: 'http://sb/api', oauthBase: 'http://sb' });
    expect(env).toMatchObject({
      NODE_ENV: 'test',
      DATABASE_URL: database.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: 't_1',
      DISCORD_API_BASE: 'http://sb/api',
      DISCORD_OAUTH_BASE: 'http://sb',
      DASHBOARD_URL: TEST_DASHBOARD_URL,
      LOG_LEVEL: 'silent',
    });
    expect(env.SESSION_SECRET?.length).toBeGreaterThanOrEqual(32);
  });

  it('leaves the OAuth2 base out when the Discord has none', () => {
    expect(testStackEnv(database, redis, { apiBase: 'http://sb/api' })).not.toHaveProperty(
      'DISCORD_OAUTH_BASE',
    );
  });
});

describe('chromiumLaunchOptions', () => {
  it('launches headless, without the sandbox containers lack', () => {
    const options = chromiumLaunchOptions();
    expect(options.executablePath).toBe(process.env.CHROMIUM_PATH ?? '/usr/bin/chromium');
    expect(options.args).toEqual(expect.arrayContaining(['--headless', '--no-sandbox']));
  });
});
