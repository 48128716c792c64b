import { useEffect } from 'react';
import { Outlet, useLocation, useSearchParams } from 'react-router';
import { StarCanvas } from '../../effects/StarCanvas.tsx';
import { useSession } from '../../lib/session.ts';
import { useGuildParam } from '../shared/guild-param.ts';
import { COMING_SOON_PAGES } from '../shared/nav.ts';
import { useAdminGuilds } from '../shared/queries.ts';
import { RestoringSession, SessionExpired, SignInRequired } from './AuthStates.tsx';
import { ConfigSidebar } from './ConfigSidebar.tsx';
import { DashboardHeader } from './DashboardHeader.tsx';
import { GuildRail } from './GuildRail.tsx';

function isPlaceholderPath(pathname: string): boolean {
  const slug = pathname.replace(/^\/dashboard\/?/, '').replace(/\/$/, '');
  return COMING_SOON_PAGES.has(slug);
}

export function DashboardLayout() {
  const { user, expired, restoring } = useSession();
  const { pathname } = useLocation();
  const guildId = useGuildParam();
  const [, setSearch] = useSearchParams();
  const guilds = useAdminGuilds();

  // The first server is selected when none is given, and stays in the URL.
  const firstGuild = guilds.data?.[0]?.id;
  useEffect(() => {
    if (!guildId && firstGuild) {
      setSearch(
        (current) => {
          const next = new URLSearchParams(current);
          next.set('guild', firstGuild);
          return next;
        },
        { replace: true },
      );
    }
  }, [guildId, firstGuild, setSearch]);

  if (restoring && (expired || !user)) return <RestoringSession />;
  if (expired) return <SessionExpired />;
  if (!user) return isPlaceholderPath(pathname) ? null : <SignInRequired />;

  return (
    <div className="dash">
      <StarCanvas variant="falling" />
      <a className="skip-link" href="#dash-main">
        Skip to content
      </a>
      <DashboardHeader user={user} guildId={guildId} />
      <div className="dash-body">
        <GuildRail activeGuildId={guildId} />
        <ConfigSidebar guildId={guildId} />
        <main id="dash-main" className="dash-main">
          <Outlet />
        </main>
      </div>
    </div>
  );
}
