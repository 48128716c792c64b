import { type ReactNode, useEffect } from 'react';
import { SiteFooter } from '../landing/SiteFooter.tsx';
import { SiteHeader } from '../landing/SiteHeader.tsx';
import '../styles/landing.css';

export function LegalPage({
  title,
  updated,
  children,
}: {
  title: string;
  updated: string;
  children: ReactNode;
}) {
  useEffect(() => {
    document.title = `${title} · Space Cadet`;
    window.scrollTo(0, 0);
  }, [title]);
  return (
    <div className="legal">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <SiteHeader />
      <main id="main" className="container">
        <article className="legal-body">
          <h1>{title}</h1>
          <p className="legal-updated">Last updated {updated}</p>
          {children}
        </article>
      </main>
      <SiteFooter />
    </div>
  );
}
