import { Link } from 'react-router';
import { COMMUNITY_SERVER_URL, SUPPORT_SERVER_URL } from '../site.ts';
import { LogoMark } from '../ui/Logo.tsx';

export function SiteFooter() {
  return (
    <footer className="site-footer">
      <div className="container footer-inner">
        <div className="footer-brand">
          <LogoMark size={22} />
          <span>Space Cadet</span>
        </div>
        <nav aria-label="Footer">
          <ul className="footer-links">
            <li>
              <Link to="/terms">Terms of Service</Link>
            </li>
            <li>
              <Link to="/privacy">Privacy Policy</Link>
            </li>
            <li>
              <a href={COMMUNITY_SERVER_URL}>Community</a>
            </li>
            <li>
              <a href={SUPPORT_SERVER_URL}>Support</a>
            </li>
          </ul>
        </nav>
        <p className="footer-note">
          © {new Date().getFullYear()} Space Cadet. Not affiliated with Discord Inc.
        </p>
      </div>
    </footer>
  );
}
