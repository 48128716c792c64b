import { z } from 'zod';

/**
 * Zod compiles object parsers with `new Function` when it may; under the dashboard server's
 * Content-Security-Policy (no 'unsafe-eval') even its probe for that is reported as a
 * violation. Imported first by main.tsx, before any schema parses.
 */
z.config({ jitless: true });
