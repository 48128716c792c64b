/** A port for a server a test starts itself (one that cannot take port 0 and report back). */
import { createServer } from 'node:net';

/** A TCP port on 127.0.0.1 that nothing listened on when asked (the OS picks it). */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      if (address === null || typeof address === 'string') {
        server.close();
        reject(new Error('the probe server has no TCP address'));
        return;
      }
      server.close(() => resolve(address.port));
    });
  });
}
