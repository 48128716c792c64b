import { once } from 'node:events';
import { createServer } from 'node:net';
import { describe, expect, it } from 'vitest';
import { freePort } from '../src/index.ts';

describe('freePort', () => {
  it('gives a port a server can then listen on', async () => {
    const port = await freePort();
    expect(port).toBeGreaterThan(0);
    const server = createServer();
    server.listen(port, '127.0.0.1');
    await once(server, 'listening');
    const address = server.address();
    expect(typeof address === 'object' && address?.port).toBe(port);
    server.close();
    await once(server, 'close');
  });
});
