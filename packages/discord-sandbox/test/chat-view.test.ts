import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SANDBOX_IDS, type Sandbox, startSandbox } from '../src/index.ts';

let sandbox: Sandbox;
beforeEach(async () => {
  sandbox = await startSandbox({ port: 0 });
});
afterEach(async () => {
  await sandbox.close();
});

describe('chat view', () => {
  it('serves a self-contained page at / and /chat that polls the control API', async () => {
    for (const path of ['/', '/chat']) {
      const res = await fetch(`${sandbox.url}${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      const html = await res.text();
      expect(html).toContain('data-testid="messages"');
      expect(html).toContain("'/_sandbox' + path");
      expect(html).not.toMatch(/<script[^>]+src=/);
    }
  });

  it('serves Discord CDN avatar and icon paths as generated images', async () => {
    const avatar = await fetch(
      `${sandbox.cdnBase}/avatars/${SANDBOX_IDS.users.ada}/0a1da0a1da0a1da0a1da0a1da0a1da0a.png?size=64`,
    );
    expect(avatar.headers.get('content-type')).toContain('image/svg+xml');
    expect(await avatar.text()).toContain('>A</text>');
    const icon = await fetch(`${sandbox.cdnBase}/icons/${SANDBOX_IDS.guilds.station}/abc.png?size=128`);
    expect(await icon.text()).toContain('>S</text>');
  });

  it('reports the bot offline in presence when no gateway session exists', async () => {
    const res = await fetch(`${sandbox.url}/_sandbox/presence`);
    expect(await res.json()).toEqual({ online: false, sessions: [] });
  });
});
