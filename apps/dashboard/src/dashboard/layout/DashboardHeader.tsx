import type { SessionUser } from '@spacecadet/contract';
import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { avatarUrl } from '../../lib/cdn.ts';
import { clearSession } from '../../lib/session.ts';
import { Avatar } from '../../ui/Avatar.tsx';
import { EffectsToggle } from '../../ui/EffectsToggle.tsx';
import { LogoMark } from '../../ui/Logo.tsx';
import { withGuild } from '../shared/guild-param.ts';
import { QueueViewButton } from './QueueViewButton.tsx';

export function DashboardHeader({ user, guildId }: { user: SessionUser; guildId: string | null }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();

  const logOut = async () => {
    try {
      await apiCall('logout');
    } catch {
      // The session is forgotten locally either way.
    }
    clearSession();
    queryClient.clear();
    navigate('/', { replace: true });
  };

  return (
    <header className="dash-header">
      <Link to="/" className="brand dash-brand" aria-label="Space Cadet home">
        <LogoMark />
        <span>Space Cadet</span>
      </Link>
      <div className="dash-user">
        <Avatar src={avatarUrl(user)} name={user.username} size={40} className="dash-avatar" />
        <div className="dash-user-text">
          <span className="dash-username">
            {user.username}
            {user.discriminator && user.discriminator !== '0' ? (
              <span className="dash-discriminator">#{user.discriminator}</span>
            ) : null}
          </span>
          <span className="dash-user-id">ID {user.id}</span>
        </div>
      </div>
      <nav className="dash-header-actions" aria-label="Account">
        <EffectsToggle />
        <QueueViewButton />
        <Link className="btn btn-secondary btn-sm" to={withGuild('/dashboard', guildId)}>
          Dashboard
        </Link>
        <Link className="btn btn-ghost btn-sm" to="/account">
          Your data
        </Link>
        <button type="button" className="btn btn-ghost btn-sm" onClick={() => void logOut()}>
          Log out
        </button>
      </nav>
    </header>
  );
}
