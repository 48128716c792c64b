import { describe, expect, it } from 'vitest';
import { featureRoutes, PRODUCT_FEATURES, SLASH_COMMANDS } from '../src/product-features.ts';

describe('PRODUCT_FEATURES', () => {
  it('gives every feature its own id, name and paths', () => {
    const ids = PRODUCT_FEATURES.map((feature) => feature.id);
    const names = PRODUCT_FEATURES.map((feature) => feature.name);
    const paths = PRODUCT_FEATURES.flatMap(featureRoutes);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(names).size).toBe(names.length);
    expect(new Set(paths).size).toBe(paths.length);
  });

  it('gives a command to no coming-soon feature, and each command to one feature', () => {
    for (const feature of PRODUCT_FEATURES) {
      if (feature.status === 'coming_soon') expect(feature.commands, feature.id).toEqual([]);
    }
    const commands = SLASH_COMMANDS.map((command) => command.name);
    expect(new Set(commands).size).toBe(commands.length);
  });

  it('puts a tile or a sidebar link only where there is a screen to open', () => {
    for (const feature of PRODUCT_FEATURES) {
      if (feature.route === null) {
        expect(feature.tile, feature.id).toBeNull();
        expect(feature.sidebar, feature.id).toBeNull();
      }
    }
  });

  it('keeps every sub-page under its feature route', () => {
    for (const feature of PRODUCT_FEATURES) {
      for (const page of feature.sidebar?.pages ?? [])
        expect(page.route.startsWith(`${feature.route}/`)).toBe(true);
    }
  });
});
