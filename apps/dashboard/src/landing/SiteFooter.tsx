import { Link } from 'react-router';
import { operatorInfo } from '../operator.tsx';
import { LogoMark } from '../ui/Logo.tsx';

export function SiteFooter() {
  const { communityUrl, supportUrl } = operatorInfo();
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
            {communityUrl ? (
              <li>
                <a href={communityUrl}>Community</a>
              </li>
            ) : null}
            {supportUrl ? (
              <li>
                <a href={supportUrl}>Support</a>
              </li>
            ) : null}
          </ul>
        </nav>
        <p className="footer-note">
          © {new Date().getFullYear()} Space Cadet. Not affiliated with Discord Inc.
        </p>
      </div>
    </footer>
  );
}
