import { NavLink } from 'react-router';
import { withGuild } from '../shared/guild-param.ts';

export function LevelingNav({ guildId }: { guildId: string }) {
  return (
    <nav className="button-row" aria-label="Leveling">
      {(
        [
          ['settings', 'Settings'],
          ['roles', 'Roles'],
          ['boosts', 'Boosts'],
          ['leaderboard', 'Leaderboard'],
        ] as const
      ).map(([slug, label]) => (
        <NavLink
          key={slug}
          className="btn btn-secondary btn-sm"
          to={withGuild(`/dashboard/leveling/${slug}`, guildId)}
        >
          {label}
        </NavLink>
      ))}
    </nav>
  );
}
