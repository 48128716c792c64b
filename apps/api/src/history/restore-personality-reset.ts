import type { AreaRestorers } from './restorers.ts';

/** Undo of personality reset changes (see `restorers.ts`). */
export const personalityResetRestorers: AreaRestorers = { state: {}, snapshot: {} };
