import { cleanup, screen } from '@testing-library/react';
import { Route } from 'react-router';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeApi } from '../../test/fake-api.ts';
import { renderAt } from '../../test/render.tsx';
import { Community } from '../landing/Sections.tsx';
import { SiteFooter } from '../landing/SiteFooter.tsx';
import { asClause, NOT_NAMED } from '../operator.tsx';
import { RUNTIME_CONFIG_GLOBAL } from '../runtime-config.ts';
import Privacy from './Privacy.tsx';
import Terms from './Terms.tsx';

const OPERATOR = {
  name: 'Example Bots Ltd',
  supportUrl: 'https://discord.gg/example-support',
  communityUrl: 'https://discord.gg/example-community',
  privacyContact: 'privacy@example.org',
};

const routes = (
  <>
    <Route path="/privacy" element={<Privacy />} />
    <Route path="/terms" element={<Terms />} />
    <Route
      path="/"
      element={
        <>
          <Community />
          <SiteFooter />
        </>
      }
    />
  </>
);

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  delete window[RUNTIME_CONFIG_GLOBAL];
});

const hrefs = () => [...document.querySelectorAll('a')].map((a) => a.getAttribute('href') ?? '');

describe("the operator's links, from /config.js", () => {
  it('say plainly that this deployment has not named them, and link nowhere of ours', async () => {
    fakeApi(() => undefined);
    for (const path of ['/privacy', '/terms', '/']) {
      renderAt(path, routes);
      await screen.findAllByRole('link');
      expect(hrefs().filter((href) => /discord\.gg|^mailto:/.test(href))).toEqual([]);
      const text = document.body.textContent ?? '';
      if (path === '/privacy') {
        expect(text).toContain(NOT_NAMED.privacy);
        expect(text).toContain(`(${asClause(NOT_NAMED.operator)}).`);
        // The spec's points, and both actions linked.
        expect(text).toContain('We do not sell');
        expect(screen.getByRole('link', { name: 'download my data' }).getAttribute('href')).toBe('/account');
        expect(screen.getByRole('link', { name: 'delete my data' }).getAttribute('href')).toBe('/account');
        expect(text).toContain('90 days');
      }
      if (path === '/terms') expect(text).toContain(NOT_NAMED.operator);
      if (path === '/') {
        expect(text).toContain(NOT_NAMED.community);
        expect(text).toContain(NOT_NAMED.support);
        expect(screen.queryByRole('link', { name: 'Support' })).toBeNull();
      }
      cleanup();
    }
  });

  it("link the operator's servers and contact and name them when set", async () => {
    fakeApi(() => undefined);
    window[RUNTIME_CONFIG_GLOBAL] = { operator: OPERATOR };
    renderAt('/privacy', routes);
    await screen.findByRole('heading', { name: 'Privacy Policy' });
    expect(screen.getByRole('link', { name: OPERATOR.privacyContact }).getAttribute('href')).toBe(
      `mailto:${OPERATOR.privacyContact}`,
    );
    expect(document.body.textContent).toContain(`run by ${OPERATOR.name}`);
    expect(document.body.textContent).not.toContain(NOT_NAMED.privacy);
    cleanup();

    renderAt('/terms', routes);
    await screen.findByRole('heading', { name: 'Terms of Service' });
    expect(document.body.textContent).toContain(`where ${OPERATOR.name} is established`);
    expect(screen.getByRole('link', { name: 'support server' }).getAttribute('href')).toBe(
      OPERATOR.supportUrl,
    );
    cleanup();

    renderAt('/', routes);
    expect(screen.getByRole('link', { name: /Community server/ }).getAttribute('href')).toBe(
      OPERATOR.communityUrl,
    );
    expect(screen.getByRole('link', { name: /Support server/ }).getAttribute('href')).toBe(
      OPERATOR.supportUrl,
    );
    expect(screen.getByRole('link', { name: 'Support' }).getAttribute('href')).toBe(OPERATOR.supportUrl);
  });

  it('links a privacy page when the contact is a URL', async () => {
    fakeApi(() => undefined);
    window[RUNTIME_CONFIG_GLOBAL] = { operator: { privacyContact: 'https://example.org/privacy' } };
    renderAt('/privacy', routes);
    const link = await screen.findByRole('link', { name: 'https://example.org/privacy' });
    expect(link.getAttribute('href')).toBe('https://example.org/privacy');
  });
});
