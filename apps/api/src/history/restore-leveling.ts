import type { AreaRestorers } from './restorers.ts';

/** Undo of leveling changes (see `restorers.ts`). */
export const levelingRestorers: AreaRestorers = { state: {}, snapshot: {} };
