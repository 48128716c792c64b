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

/**
 * Honest copy: cards without `soon` describe what the bot does today. The product's advertised
 * items (utilities, slash commands and context menus, auto-reconnect, mod logs and anti-spam) keep
 * their cards; the unbuilt ones are marked Coming Soon.
 */
export const FEATURES: readonly Feature[] = [
  {
    title: 'Color roles',
    text: 'Generate a palette of color roles and post a panel: members click a color, or a family and then a shade, and /colors shows them where the panel is.',
    icon: icon(
      'M12 3a9 9 0 1 0 0 18c1.1 0 2-.9 2-2 0-1.2 1-2 2-2h1a4 4 0 0 0 4-4c0-5-4-10-9-10zM7.5 11h.01M10 7h.01M15 7.5h.01',
    ),
  },
  {
    title: 'Web dashboard',
    text: 'Sign in with Discord, pick a server you admin and run color and personality roles from the browser: generate the roles, choose a channel, post the panel or the questions.',
    icon: icon('M3 5h18v12H3zM8 21h8M12 17v4M7 9h4M7 13h7'),
  },
  {
    title: 'Auto-reconnect',
    text: 'Network blip or Discord restart? Space Cadet resumes its session on its own, so panels keep answering.',
    icon: icon('M20 12a8 8 0 1 1-2.3-5.6M20 4v5h-5'),
  },
  {
    title: 'Personality roles',
    text: 'Turn on the questions you want (pronouns, age range, hobbies and more): the bot creates a role for every answer and posts one message per question, members click to pick theirs, and every 5 minutes it puts back any role or message that went missing.',
    icon: icon('M12 12a4 4 0 1 0 0-8 4 4 0 0 0 0 8zM4 21c0-4 4-6 8-6s8 2 8 6'),
  },
  {
    title: 'Leveling',
    text: 'XP for chatting, reward roles at each level and XP boosts. You can prepare the settings in the dashboard; members do not earn XP yet.',
    icon: icon('M4 20h4v-6H4zM10 20h4V9h-4zM16 20h4V4h-4z'),
    soon: true,
  },
  {
    title: 'Custom reaction roles',
    text: 'Emoji-to-role panels of your own design.',
    icon: icon('M12 21a9 9 0 1 0 0-18 9 9 0 0 0 0 18zM8.5 14a4 4 0 0 0 7 0M9 9.5h.01M15 9.5h.01'),
    soon: true,
  },
  {
    title: 'Dictionary & translation',
    text: 'Look up a word or translate a message without leaving the conversation.',
    icon: icon('M4 5h9a3 3 0 0 1 3 3v11H7a3 3 0 0 1-3-3zM16 8h4v11h-4M8 9h4M8 13h4'),
    soon: true,
  },
  {
    title: 'Slash commands & context menus',
    text: 'Today there is /colors; more commands and right-click actions on messages and members are on the way.',
    icon: icon('M7 20 17 4M4 9h4M4 15h3M16 9h4M17 15h3'),
    soon: true,
  },
  {
    title: 'Mod logs & anti-spam',
    text: 'Edits, deletions, joins and leaves in a log channel, and filters against floods, mass mentions and raids.',
    icon: icon('M12 3 5 6v6c0 4 3 7 7 9 4-2 7-5 7-9V6zM9 12l2 2 4-4'),
    soon: true,
  },
  {
    title: 'Welcome messages',
    text: 'Greet new crew members with a custom message and starter roles.',
    icon: icon('M4 12h3l2-6 4 12 2-6h5'),
    soon: true,
  },
  {
    title: 'Giveaways & games',
    text: 'Timed giveaways with fair draws, and mini-games for your members.',
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
          What Space Cadet does
        </h2>
        <p className="section-lead">
          Color roles, personality roles and the dashboard work today. Cards marked Coming Soon are not built
          yet.
        </p>
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
