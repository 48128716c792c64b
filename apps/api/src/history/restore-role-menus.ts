import type { AreaRestorers } from './restorers.ts';

/** Undo of role menus changes (see `restorers.ts`). */
export const roleMenuRestorers: AreaRestorers = { state: {}, snapshot: {} };
