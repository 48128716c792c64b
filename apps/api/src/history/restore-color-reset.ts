import type { AreaRestorers } from './restorers.ts';

/** Undo of color reset changes (see `restorers.ts`). */
export const colorResetRestorers: AreaRestorers = { state: {}, snapshot: {} };
