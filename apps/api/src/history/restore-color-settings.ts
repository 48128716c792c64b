import type { AreaRestorers } from './restorers.ts';

/** Undo of color settings changes (see `restorers.ts`). */
export const colorSettingsRestorers: AreaRestorers = { state: {}, snapshot: {} };
