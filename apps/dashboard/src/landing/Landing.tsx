import { lazy, Suspense, useEffect } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { addInstalledGuild } from '../lib/preferences.ts';
import '../styles/landing.css';
import { Features } from './Features.tsx';
import { Hero } from './Hero.tsx';
import { installedGuildFromQuery } from './install.ts';
import { CallToAction, Community, DashboardPreview } from './Sections.tsx';
import { SiteFooter } from './SiteFooter.tsx';
import { SiteHeader } from './SiteHeader.tsx';

// The star background draws nothing before the page has loaded and idled (StarCanvas), so its
// code loads beside the page rather than in its first download; fixed behind the page, it
// shifts nothing when it appears.
const StarCanvas = lazy(() =>
  import('../effects/StarCanvas.tsx').then((module) => ({ default: module.StarCanvas })),
);

export function Landing() {
  const location = useLocation();
  const navigate = useNavigate();
  const { search, hash } = location;

  useEffect(() => {
    const install = installedGuildFromQuery(new URLSearchParams(search));
    if (!install) return;
    if (install.guildId) addInstalledGuild(install.guildId);
    // Clear the install query from history, then go to the server's dashboard.
    window.history.replaceState(window.history.state, '', '/');
    navigate(install.guildId ? `/dashboard?guild=${install.guildId}` : '/dashboard', { replace: true });
  }, [search, navigate]);

  // Header anchors navigate to /#features etc.; the router does not scroll by itself.
  useEffect(() => {
    if (hash) document.getElementById(hash.slice(1))?.scrollIntoView();
  }, [hash]);

  return (
    <div className="landing">
      <Suspense fallback={null}>
        <StarCanvas variant="drift" />
      </Suspense>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main">
        <Hero />
        <Features />
        <DashboardPreview />
        <CallToAction />
        <Community />
      </main>
      <SiteFooter />
    </div>
  );
}
