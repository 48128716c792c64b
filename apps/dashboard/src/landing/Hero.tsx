import { TAGLINE_PAUSE_MS } from '../site.ts';
import { signIn } from './sign-in.ts';
import { useInviteUrl } from './useInviteUrl.ts';
import { useTypedText } from './useTypedText.ts';

/** Only what the bot does today (the features grid marks the rest Coming Soon). */
export const TAGLINES = [
  'Color roles your members actually click.',
  'A color, then a shade, in two clicks.',
  'Every server you admin, one dashboard.',
] as const;

/** Its own component: a typed letter re-renders this line only, not the whole hero. */
function TypedTagline() {
  const typed = useTypedText(TAGLINES, TAGLINE_PAUSE_MS);
  // The caret is glued to the last word: a line may break between words, never before it.
  const cut = typed.lastIndexOf(' ') + 1;
  return (
    <span aria-hidden="true" className="typed">
      {typed.slice(0, cut)}
      <span className="typed-last">
        {typed.slice(cut)}
        <span className="caret" />
      </span>
    </span>
  );
}

export function Hero() {
  const inviteUrl = useInviteUrl();
  return (
    <section className="hero" aria-labelledby="hero-title">
      <div className="container hero-inner">
        <p className="eyebrow">Discord companion bot</p>
        <h1 id="hero-title" className="hero-title">
          Your server&rsquo;s <span className="gradient-text">mission control</span>
        </h1>
        <p className="hero-tagline">
          <span className="sr-only">
            Color roles and a web dashboard for your Discord server, with more features coming soon.
          </span>
          <TypedTagline />
        </p>
        <div className="hero-actions">
          <a className="btn btn-discord btn-lg" href={inviteUrl}>
            Add to Discord
          </a>
          <button type="button" className="btn btn-secondary btn-lg" onClick={signIn}>
            Open the dashboard
          </button>
        </div>
        <ul className="hero-points" aria-label="Highlights">
          <li>Free to add</li>
          <li>Color roles</li>
          <li>Web dashboard</li>
        </ul>
      </div>
      <div className="hero-planet" aria-hidden="true">
        <div className="planet" />
        <div className="ring" />
      </div>
    </section>
  );
}
