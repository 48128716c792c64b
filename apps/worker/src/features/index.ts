import type { ComponentRoute } from '../interactions/types.ts';
import { colorRoleInteractions } from './color-roles/interactions.ts';

/** Panel components by custom_id prefix, one entry per feature that posts panels. */
export const COMPONENT_ROUTES: readonly ComponentRoute[] = [colorRoleInteractions];
