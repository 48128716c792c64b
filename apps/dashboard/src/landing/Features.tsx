import type { ReactNode } from 'react';

interface Feature {
  title: string;
  text: string;
  icon: ReactNode;
  soon?: boolean;
}

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

export const FEATURES: readonly Feature[] = [
  {
    title: 'Dictionary & translation',
    text: 'Look up a word or translate a message in dozens of languages without leaving the conversation.',
    icon: icon('M4 5h9a3 3 0 0 1 3 3v11H7a3 3 0 0 1-3-3zM16 8h4v11h-4M8 9h4M8 13h4'),
  },
  {
    title: 'Slash commands & context menus',
    text: 'Type / for every command, or right-click a message or member for quick actions.',
    icon: icon('M7 20 17 4M4 9h4M4 15h3M16 9h4M17 15h3'),
  },
  {
    title: 'Auto-reconnect',
    text: 'Network blip or Discord restart? Space Cadet resumes its session on its own, so commands keep answering.',
    icon: icon('M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5'),
  },
  {
    title: 'Mod logs & anti-spam',
    text: 'Edits, deletions, joins and leaves land in a log channel; filters stop floods, mass mentions and raids.',
    icon: icon('M12 3 5 6v6c0 4 3 7 7 9 4-2 7-5 7-9V6zM9 12l2 2 4-4'),
  },
  {
    title: 'Welcome messages',
    text: 'Greet new crew members with a custom message and starter roles.',
    icon: icon('M4 12h3l2-6 4 12 2-6h5'),
    soon: true,
  },
  {
    title: 'Economy & games',
    text: 'Daily rewards, a server currency and mini-games.',
    icon: icon('M12 4v16M8 8h6a2 2 0 0 1 0 4h-4a2 2 0 0 0 0 4h6'),
    soon: true,
  },
  {
    title: 'Giveaways',
    text: 'Timed giveaways with entry requirements and fair draws.',
    icon: icon('M4 10h16v10H4zM3 7h18v3H3zM12 7v13M12 7c-2-3-5-3-5-1s3 1 5 1c2 0 5 1 5-1s-3-2-5 1'),
    soon: true,
  },
  {
    title: 'Tickets & starboard',
    text: 'Private support tickets and a hall of fame for the best messages.',
    icon: icon('M12 3l2.6 5.4 5.9.8-4.3 4.1 1 5.9L12 16.4 6.8 19.2l1-5.9L3.5 9.2l5.9-.8z'),
    soon: true,
  },
];

export function Features() {
  return (
    <section id="features" className="section" aria-labelledby="features-title">
      <div className="container">
        <p className="eyebrow">Features</p>
        <h2 id="features-title" className="section-title">
          Everything a busy server needs
        </h2>
        <p className="section-lead">Useful from the first minute, configurable when you want more.</p>
        <ul className="feature-grid">
          {FEATURES.map((feature) => (
            <li key={feature.title} className={`feature-card${feature.soon ? ' soon' : ''}`}>
              <span className="feature-icon">{feature.icon}</span>
              <h3>
                {feature.title}
                {feature.soon ? <span className="badge badge-soon">Coming Soon</span> : null}
              </h3>
              <p>{feature.text}</p>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
