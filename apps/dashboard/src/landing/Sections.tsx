import { LANDING_FEATURES } from '@spacecadet/core/product-features';
import { NOT_NAMED, operatorInfo } from '../operator.tsx';
import { joinNames } from './Features.tsx';
import { signIn } from './sign-in.ts';
import { useInviteUrl } from './useInviteUrl.ts';

export function DashboardPreview() {
  return (
    <section className="section" aria-labelledby="preview-title">
      <div className="container preview-layout">
        <div>
          <p className="eyebrow">Dashboard</p>
          <h2 id="preview-title" className="section-title">
            Mission control for every server
          </h2>
          <p className="section-lead">
            Pick a server and run its {joinNames(LANDING_FEATURES.map((feature) => feature.name))} from one
            place. A fuller dashboard with live stats is on its way.
          </p>
        </div>
        <figure className="preview-window" aria-label="Dashboard preview, coming soon">
          <div className="preview-bar" aria-hidden="true">
            <span />
            <span />
            <span />
          </div>
          <div className="preview-body" aria-hidden="true">
            <div className="preview-rail">
              <i />
              <i />
              <i />
            </div>
            <div className="preview-side">
              <b />
              <b />
              <b />
              <b />
            </div>
            <div className="preview-main">
              <div className="preview-tiles">
                <em />
                <em />
                <em />
                <em />
              </div>
              <div className="preview-panel" />
            </div>
          </div>
          <figcaption className="badge badge-soon preview-badge">Coming Soon</figcaption>
        </figure>
      </div>
    </section>
  );
}

export function CallToAction() {
  const inviteUrl = useInviteUrl();
  return (
    <section className="section" aria-labelledby="cta-title">
      <div className="container">
        <div className="cta-card">
          <h2 id="cta-title">Ready for liftoff?</h2>
          <p>Add Space Cadet to your server in two clicks, then sign in to set it up.</p>
          <div className="hero-actions">
            <a className="btn btn-discord btn-lg" href={inviteUrl}>
              Add to Discord
            </a>
            <button type="button" className="btn btn-secondary btn-lg" onClick={signIn}>
              Sign in to the dashboard
            </button>
          </div>
        </div>
      </div>
    </section>
  );
}

export function Community() {
  const { communityUrl, supportUrl } = operatorInfo();
  return (
    <section id="contact" className="section" aria-labelledby="community-title">
      <div className="container">
        <p className="eyebrow">Contact</p>
        <h2 id="community-title" className="section-title">
          Community &amp; support
        </h2>
        <div className="community-grid">
          {communityUrl ? (
            <a className="community-card" href={communityUrl}>
              <h3>Community server</h3>
              <p>Meet other server admins, share setups and hear about new features first.</p>
              <span className="link-arrow">Join the community</span>
            </a>
          ) : (
            <div className="community-card">
              <h3>Community server</h3>
              <p>{NOT_NAMED.community}</p>
            </div>
          )}
          {supportUrl ? (
            <a className="community-card" href={supportUrl}>
              <h3>Support server</h3>
              <p>Questions and bug reports: the team running this deployment answers here.</p>
              <span className="link-arrow">Get support</span>
            </a>
          ) : (
            <div className="community-card">
              <h3>Support server</h3>
              <p>{NOT_NAMED.support}</p>
            </div>
          )}
        </div>
      </div>
    </section>
  );
}
