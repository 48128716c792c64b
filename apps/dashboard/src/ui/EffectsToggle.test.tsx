import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, screen, within } from '@testing-library/react';
import { Route } from 'react-router';
import { describe, expect, it } from 'vitest';
import { ADA, fakeApi } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { DashboardHeader } from '../dashboard/layout/DashboardHeader.tsx';
import { SiteHeader } from '../landing/SiteHeader.tsx';

describe('the effects toggle', () => {
  it('is called Effects on the landing header and in the dashboard header', () => {
    fakeApi(() => undefined);
    renderAt(
      '/',
      <Route
        path="/"
        element={
          <QueryClientProvider client={new QueryClient()}>
            <SiteHeader />
            <DashboardHeader user={ADA} guildId={null} />
          </QueryClientProvider>
        }
      />,
    );
    const landing = within(screen.getByRole('navigation', { name: 'Main' })).getByRole('button', {
      name: /^Effects (on|off)$/,
    });
    const dashboard = within(screen.getByRole('navigation', { name: 'Account' })).getByRole('button', {
      name: /^Effects (on|off)$/,
    });
    // The same control, the same name and state in both places.
    expect(landing.textContent).toBe(dashboard.textContent);
    act(() => landing.click());
    expect(landing.getAttribute('aria-pressed')).toBe(dashboard.getAttribute('aria-pressed'));
    expect(document.body.textContent).not.toMatch(/\bFX\b/);
  });
});
