/**
 * Zod compiles object parsers with `new Function` when it may; under the dashboard server's
 * Content-Security-Policy (no 'unsafe-eval') even its probe for that is reported as a
 * violation. Imported first by main.tsx, before any schema is built (a schema reads the setting
 * when it is built, not when it parses).
 *
 * Not through `z.config`: importing zod here would put it in the landing page's first load,
 * which parses nothing (the API client and the contract load later, on demand). Zod keeps its
 * config on this global, shared by every copy of it and created only when absent, so the setting
 * made before zod loads is the one it reads; zod-jitless.test.ts checks that `z.config()` sees it.
 */
const zodGlobal = globalThis as { __zod_globalConfig?: { jitless?: boolean } };
zodGlobal.__zod_globalConfig ??= {};
zodGlobal.__zod_globalConfig.jitless = true;
