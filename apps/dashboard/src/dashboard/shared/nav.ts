/** Dashboard navigation: the sidebar, the overview tiles and the Coming Soon pages, from core's feature list. */
import { type FeatureStatus, PRODUCT_FEATURES, type ProductFeature } from '@spacecadet/core/product-features';

export interface NavLink {
  label: string;
  path: string;
  status: FeatureStatus;
}
export interface NavGroup {
  name: string;
  links: NavLink[];
}

function sidebarLinks(feature: ProductFeature): NavLink[] {
  const { status } = feature;
  const pages = feature.sidebar?.pages;
  if (pages) return pages.map((page) => ({ label: page.label, path: page.route, status }));
  return feature.route ? [{ label: feature.name, path: feature.route, status }] : [];
}

/**
 * The JSON-backed editor of both reaction-role lists (the Reaction Roles editor). It is a form
 * over the raw configuration, not a feature of the bot: it sits in the Reaction Roles group.
 */
const REACTION_ROLES_EDITOR: NavLink = {
  label: 'Reaction Roles editor',
  path: '/dashboard/reaction-roles',
  status: 'live',
};

function sidebarGroups(): NavGroup[] {
  const groups = new Map<string, NavLink[]>();
  const byName = [...PRODUCT_FEATURES].sort((a, b) => a.name.localeCompare(b.name, 'en'));
  for (const feature of byName) {
    if (!feature.sidebar) continue;
    const links = groups.get(feature.sidebar.group) ?? [];
    links.push(...sidebarLinks(feature));
    groups.set(feature.sidebar.group, links);
  }
  groups.get('Reaction Roles')?.push(REACTION_ROLES_EDITOR);
  return [...groups].map(([name, links]) => ({ name, links }));
}

/** Links of the whole server, above the groups: its History (every change, with Undo). */
export const SERVER_LINKS: readonly NavLink[] = [
  { label: 'History', path: '/dashboard/history', status: 'live' },
];

/** Groups sorted alphabetically, as the sidebar shows them, and the features within a group too. */
export const SIDEBAR_GROUPS: readonly NavGroup[] = sidebarGroups().sort((a, b) =>
  a.name.localeCompare(b.name, 'en'),
);

/** The sidebar group holding the link to this path, if any. */
export function groupOfPath(pathname: string): string | undefined {
  const path = pathname.replace(/\/$/, '');
  return SIDEBAR_GROUPS.find((group) => group.links.some((link) => link.path === path))?.name;
}

/** The features whose screen is a Coming Soon page, by slug (their route under /dashboard/). */
export const COMING_SOON_PAGES: ReadonlyMap<string, ProductFeature> = new Map(
  PRODUCT_FEATURES.flatMap((feature) =>
    feature.status === 'coming_soon' && feature.route
      ? [[feature.route.slice('/dashboard/'.length), feature] as const]
      : [],
  ),
);

/** The overview's tiles: every feature with a tile and a screen, in the list's order. */
export const FEATURE_TILES: readonly (ProductFeature & { route: string })[] = PRODUCT_FEATURES.filter(
  (feature): feature is ProductFeature & { route: NonNullable<ProductFeature['route']> } =>
    feature.tile !== null && feature.route !== null,
);
