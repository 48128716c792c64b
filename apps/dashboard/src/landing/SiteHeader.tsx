import { useEffect, useRef, useState } from 'react';
import { Link } from 'react-router';
import { useSession } from '../lib/session.ts';
import { EffectsToggle } from '../ui/EffectsToggle.tsx';
import { LogoMark } from '../ui/Logo.tsx';
import { signIn } from './sign-in.ts';
import { useInviteUrl } from './useInviteUrl.ts';

export function SiteHeader() {
  const [menuOpen, setMenuOpen] = useState(false);
  const inviteUrl = useInviteUrl();
  const { user, restoring } = useSession();
  const close = () => setMenuOpen(false);
  const menuButton = useRef<HTMLButtonElement>(null);

  // Escape closes the mobile menu and returns focus to its button.
  useEffect(() => {
    if (!menuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== 'Escape') return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, [menuOpen]);

  return (
    <header className="site-header">
      <div className="site-header-inner container">
        <Link to="/" className="brand" aria-label="Space Cadet home">
          <LogoMark />
          <span>Space Cadet</span>
        </Link>
        <button
          ref={menuButton}
          type="button"
          className="btn btn-ghost btn-sm menu-button"
          aria-expanded={menuOpen}
          aria-controls="site-nav"
          onClick={() => setMenuOpen((open) => !open)}
        >
          <span className="menu-icon" aria-hidden="true" />
          Menu
        </button>
        <nav id="site-nav" className={`site-nav${menuOpen ? ' open' : ''}`} aria-label="Main">
          <ul className="nav-links">
            <li>
              <Link to="/#features" onClick={close}>
                Features
              </Link>
            </li>
            <li>
              <Link to="/terms" onClick={close}>
                Terms
              </Link>
            </li>
            <li>
              <Link to="/privacy" onClick={close}>
                Privacy
              </Link>
            </li>
            <li>
              <Link to="/#contact" onClick={close}>
                Contact
              </Link>
            </li>
          </ul>
          <div className="nav-actions">
            <EffectsToggle />
            {/* While this browser's sign-in is restored, not a flash of Sign in. */}
            {user || restoring ? (
              <Link to="/dashboard" className="btn btn-secondary btn-sm">
                Dashboard
              </Link>
            ) : (
              <button type="button" className="btn btn-secondary btn-sm" onClick={signIn}>
                Sign in
              </button>
            )}
            <a className="btn btn-discord btn-sm" href={inviteUrl}>
              Add to Discord
            </a>
          </div>
        </nav>
      </div>
    </header>
  );
}
