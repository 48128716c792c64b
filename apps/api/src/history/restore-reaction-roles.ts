import type { AreaRestorers } from './restorers.ts';

/** Undo of reaction roles changes (see `restorers.ts`). */
export const reactionRoleRestorers: AreaRestorers = { state: {}, snapshot: {} };
