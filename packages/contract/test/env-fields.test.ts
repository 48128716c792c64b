import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { discordApiBaseField, discordProxyEnvFields, isLocalDiscord } from '../src/env-fields.ts';

describe('isLocalDiscord', () => {
  it.each([
    ['http://127.0.0.1:4100/api', true],
    ['http://localhost:4100', true],
    ['http://[::1]:4100/api', true],
    ['https://discord.com/api', false],
    ['https://discord.com', false],
    ['http://localhost.example.com/api', false],
    ['http://127.0.0.1.nip.io/api', false],
    ['not a url', false],
    ['', false],
  ])('%s: %s', (url, local) => {
    expect(isLocalDiscord(url)).toBe(local);
  });
});

describe("Discord's REST API URLs (DISCORD_API_BASE, DISCORD_PROXY_URL)", () => {
  const Env = z.object({ DISCORD_API_BASE: discordApiBaseField, ...discordProxyEnvFields });
  const problems = (env: Record<string, string>) => {
    const parsed = Env.safeParse(env);
    return parsed.success
      ? []
      : parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  };

  it('take a URL whose path ends with /api, without trailing slashes, and default to Discord', () => {
    expect(Env.parse({})).toEqual({
      DISCORD_API_BASE: 'https://discord.com/api',
      DISCORD_PROXY_URL: undefined,
    });
    expect(
      Env.parse({
        DISCORD_API_BASE: 'http://127.0.0.1:4100/api/',
        DISCORD_PROXY_URL: 'http://proxy:4200/api',
      }),
    ).toEqual({
      DISCORD_API_BASE: 'http://127.0.0.1:4100/api',
      DISCORD_PROXY_URL: ['http://proxy:4200/api'],
    });
    expect(Env.parse({ DISCORD_PROXY_URL: 'https://example.com/discord/api' }).DISCORD_PROXY_URL).toEqual([
      'https://example.com/discord/api',
    ]);
    // Every proxy of a set, comma-separated, in order.
    expect(
      Env.parse({ DISCORD_PROXY_URL: 'http://proxy:4200/api/ , http://proxy-2:4200/api' }).DISCORD_PROXY_URL,
    ).toEqual(['http://proxy:4200/api', 'http://proxy-2:4200/api']);
  });

  it.each([
    ['http://proxy:4200/api,', /^DISCORD_PROXY_URL: must be an http\(s\) URL.*\(got ""\)$/],
    [
      'http://proxy:4200/api,http://proxy-2:4200',
      /^DISCORD_PROXY_URL: must end with \/api.*\(got "http:\/\/proxy-2:4200"\)$/,
    ],
    ['http://proxy:4200/api,http://proxy:4200/api/', /^DISCORD_PROXY_URL: lists the same proxy twice$/],
  ])('refuse DISCORD_PROXY_URL=%s, naming the bad entry', (value, problem) => {
    expect(problems({ DISCORD_PROXY_URL: value })).toEqual([expect.stringMatching(problem)]);
  });

  it.each([
    ['DISCORD_PROXY_URL', 'http://127.0.0.1:4200', 'http://127.0.0.1:4200/api'],
    ['DISCORD_PROXY_URL', 'http://discord-proxy:4200/', 'http://127.0.0.1:4200/api'],
    ['DISCORD_PROXY_URL', 'http://discord-proxy:4200/api/v10', 'http://127.0.0.1:4200/api'],
    ['DISCORD_API_BASE', 'https://discord.com', 'https://discord.com/api'],
    ['DISCORD_API_BASE', 'http://127.0.0.1:4100', 'https://discord.com/api'],
  ])('refuse %s=%s, naming the variable and what it should look like', (name, value, example) => {
    const [problem, ...others] = problems({ [name]: value });
    expect(others).toEqual([]);
    expect(problem).toMatch(new RegExp(`^${name}: must end with /api`));
    expect(problem).toContain(example);
  });
});
