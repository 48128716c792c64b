import type { AreaRestorers } from './restorers.ts';

/** Undo of personality settings changes (see `restorers.ts`). */
export const personalitySettingsRestorers: AreaRestorers = { state: {}, snapshot: {} };
