import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';

afterEach(() => {
  z.config({ jitless: undefined });
});

describe('zod-jitless', () => {
  it('sets the config zod reads (z.config), though it does not import zod', async () => {
    // zod is loaded here already: the module must reach the config zod made, not a copy.
    z.config({ jitless: undefined });
    vi.resetModules();
    await import('./zod-jitless.ts');
    expect(z.config().jitless).toBe(true);
  });

  it('leaves a schema built afterwards without compiled parsers (no `new Function` to refuse)', async () => {
    vi.resetModules();
    await import('./zod-jitless.ts');
    const compiled = vi.spyOn(globalThis, 'Function');
    const schema = z.object({ id: z.string(), count: z.number() });
    for (let i = 0; i < 3; i += 1) expect(schema.parse({ id: 'a', count: i })).toEqual({ id: 'a', count: i });
    expect(compiled).not.toHaveBeenCalled();
  });
});
