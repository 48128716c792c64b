import {
  LANDING_COMMANDS,
  LANDING_FEATURES,
  PRODUCT_FEATURES,
  type ProductFeature,
} from '@spacecadet/core/product-features';
import type { ReactNode } from 'react';

const icon = (path: string) => (
  <svg viewBox="0 0 24 24" width="24" height="24" aria-hidden="true" focusable="false">
    <path
      d={path}
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinecap="round"
      strokeLinejoin="round"
    />
  </svg>
);

const STAR = 'M12 3l2.6 5.4 5.9.8-4.3 4.1 1 5.9L12 16.4 6.8 19.2l1-5.9L3.5 9.2l5.9-.8z';

/** Each feature's icon on the landing page, by feature id; a feature without one gets the star. */
const FEATURE_ICONS: Readonly<Record<string, string>> = {
  'color-roles':
    'M12 3a9 9 0 1 0 0 18c1.1 0 2-.9 2-2 0-1.2 1-2 2-2h1a4 4 0 0 0 4-4c0-5-4-10-9-10zM7.5 11h.01M10 7h.01M15 7.5h.01',
  'personality-roles': 'M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 4-6 8-6s8 2 8 6',
  leveling: 'M4 20h4v-6H4zM10 20h4V9h-4zM16 20h4V4h-4z',
  'role-menus': 'M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM8.5 14a4 4 0 0 0 7 0M9 9.5h.01M15 9.5h.01',
  dictionary: 'M4 5h9a3 3 0 0 1 3 3v11H7a3 3 0 0 1-3-3zM16 8h4v11h-4M8 9h4M8 13h4',
  automod: 'M12 3 5 6v6c0 4 3 7 7 9 4-2 7-5 7-9V6zM9 12l2 2 4-4',
  logging: 'M6 3h9l3 3v15H6zM9 9h6M9 13h6M9 17h4',
  welcome: 'M4 12h3l2-6 4 12 2-6h5',
  games:
    'M6 9h12a3 3 0 0 1 3 3v3a2 2 0 0 1-3.4 1.4L15 14H9l-2.6 2.4A2 2 0 0 1 3 15v-3a3 3 0 0 1 3-3zM8 11v2M7 12h2M16 12h.01',
  giveaways: 'M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-2-3-5-3-5-1s3 1 5 1c2 0 5 1 5-1s-3-2-5 1',
  tickets: 'M4 7h16v3a2 2 0 0 0 0 4v3H4v-3a2 2 0 0 0 0-4zM14 7v10',
};

/** "a", "a and b", "a, b and c". */
export function joinNames(names: readonly string[]): string {
  const last = names[names.length - 1];
  return names.length <= 1 ? (last ?? '') : `${names.slice(0, -1).join(', ')} and ${last}`;
}

interface Card {
  key: string;
  title: string;
  body: ReactNode;
  icon: ReactNode;
  soon: boolean;
}

function featureCard(feature: ProductFeature): Card {
  return {
    key: feature.id,
    title: feature.name,
    body: <p>{feature.description}</p>,
    icon: icon(FEATURE_ICONS[feature.id] ?? STAR),
    soon: feature.status === 'coming_soon',
  };
}

/** The bot's slash commands, from the feature list (the features the landing shows). */
function CommandList() {
  return (
    <>
      <p>Type / in your server:</p>
      <ul className="command-list">
        {LANDING_COMMANDS.map((command) => (
          <li key={command.name}>
            <code>/{command.name}</code> <span>{command.feature.name}</span>
          </li>
        ))}
      </ul>
    </>
  );
}

/** What the bot is rather than a feature of a server: always there, never Coming Soon. */
const PLATFORM_CARDS: readonly Card[] = [
  {
    key: 'slash-commands',
    title: 'Slash commands',
    body: <CommandList />,
    icon: icon('M7 20 17 4M4 9h4M4 15h3M16 9h4M17 15h3'),
    soon: false,
  },
  {
    key: 'dashboard',
    title: 'Web dashboard',
    body: (
      <p>
        Sign in with Discord, pick a server you admin and set up{' '}
        {joinNames(LANDING_FEATURES.map((feature) => feature.name))} from the browser.
      </p>
    ),
    icon: icon('M3 5h18v12H3zM8 21h8M12 17v4M7 9h4M7 13h7'),
    soon: false,
  },
  {
    key: 'auto-reconnect',
    title: 'Auto-reconnect',
    body: (
      <p>
        Network blip or Discord restart? Space Cadet resumes its session on its own, so panels keep answering.
      </p>
    ),
    icon: icon('M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5'),
    soon: false,
  },
];

/**
 * Honest copy, from core's feature list: the live features, then what the bot is (its commands,
 * the dashboard, reconnecting), then the announced features marked Coming Soon.
 */
export const CARDS: readonly Card[] = [
  ...LANDING_FEATURES.map(featureCard),
  ...PLATFORM_CARDS,
  ...PRODUCT_FEATURES.filter((feature) => feature.landing && feature.status === 'coming_soon').map(
    featureCard,
  ),
];

export function Features() {
  return (
    <section id="features" className="section" aria-labelledby="features-title">
      <div className="container">
        <p className="eyebrow">Features</p>
        <h2 id="features-title" className="section-title">
          What Space Cadet does
        </h2>
        <p className="section-lead">
          {joinNames([...LANDING_FEATURES.map((feature) => feature.name), 'the dashboard'])} work today. Cards
          marked Coming Soon are not built yet.
        </p>
        <ul className="feature-grid">
          {CARDS.map((card) => (
            <li key={card.key} className={`feature-card${card.soon ? ' soon' : ''}`}>
              <span className="feature-icon">{card.icon}</span>
              <h3>
                {card.title}
                {card.soon ? <span className="badge badge-soon">Coming Soon</span> : null}
              </h3>
              {card.body}
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
