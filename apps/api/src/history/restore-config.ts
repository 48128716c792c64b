import type { AreaRestorers } from './restorers.ts';

/** Undo of config changes (see `restorers.ts`). */
export const configRestorers: AreaRestorers = { state: {}, snapshot: {} };
