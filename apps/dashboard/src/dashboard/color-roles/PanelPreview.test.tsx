import { ColorRolesMode } from '@spacecadet/contract';
import { DEFAULT_COLOR_PALETTE, type PanelColor } from '@spacecadet/core';
import { render, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { PanelPreview } from './PanelPreview.tsx';

const palette: PanelColor[] = DEFAULT_COLOR_PALETTE.map((family) => ({
  name: family.name,
  hex: family.hex,
  shades: family.shades.map((shade) => ({ ...shade })),
}));

const rowsShown = () =>
  within(screen.getByRole('region', { name: 'Panel buttons' }))
    .getAllByRole('list')
    .map((row) => within(row).getAllByRole('listitem'));

describe('PanelPreview', () => {
  it.each(ColorRolesMode.options)('ends the %s panel with Remove color on a row of its own', (mode) => {
    render(<PanelPreview colors={palette} mode={mode} />);
    const rows = rowsShown();
    const last = rows.at(-1) ?? [];
    expect(last.map((item) => item.textContent)).toEqual(['✖️Remove color']);
    expect(last[0]?.dataset.kind).toBe('remove');
    expect(rows.slice(0, -1).every((row) => row.length <= 4)).toBe(true);
    screen.getByText(/"Remove color" takes it away/);
  });

  it('keeps the last slot for Remove color when the palette is full', () => {
    const colors = Array.from({ length: 30 }, (_, i) => ({ name: `Colour ${i + 1}`, hex: '#336699' }));
    render(<PanelPreview colors={colors} mode="basic" />);
    const items = rowsShown().flat();
    expect(items).toHaveLength(25);
    expect(items.at(-2)?.textContent).toContain('Colour 24');
    expect(items.at(-1)?.textContent).toBe('✖️Remove color');
    screen.getByText('Only the first 24 colors fit on the panel, with the Remove color button.');
  });

  it('shows no Remove color without colors', () => {
    render(<PanelPreview colors={[]} mode="basic" />);
    screen.getByText('No colors configured yet');
    expect(screen.queryByText('Remove color')).toBeNull();
  });
});
