import { QueryClientProvider } from '@tanstack/react-query';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { Navigate, Route, Routes } from 'react-router';
import '../styles/dashboard.css';
import { PageLoading } from '../ui/PageLoading.tsx';
import { DashboardLayout } from './layout/DashboardLayout.tsx';
import Overview from './overview/Overview.tsx';
import { ComingSoon, NotYetAvailable } from './shared/ComingSoon.tsx';
import { useGuildParam, withGuild } from './shared/guild-param.ts';
import { COMING_SOON_PAGES } from './shared/nav.ts';
import { createQueryClient } from './shared/queries.ts';

const Stats = lazy(() => import('./overview/Stats.tsx'));
const ReactionRoles = lazy(() => import('./reaction-roles/ReactionRoles.tsx'));
const RoleMenus = lazy(() => import('./role-menus/RoleMenus.tsx'));
const ColorRoles = lazy(() => import('./color-roles/ColorRoles.tsx'));
const PersonalityRoles = lazy(() => import('./personality-roles/PersonalityRoles.tsx'));
const LevelingSettings = lazy(() => import('./leveling/LevelingSettings.tsx'));
const LevelingRoles = lazy(() => import('./leveling/LevelingRoles.tsx'));
const LevelingBoosts = lazy(() => import('./leveling/LevelingBoosts.tsx'));
const LevelingLeaderboard = lazy(() => import('./leveling/LevelingLeaderboard.tsx'));
const LevelingSeasons = lazy(() => import('./leveling/LevelingSeasons.tsx'));
const History = lazy(() => import('./history/History.tsx'));
const Welcome = lazy(() => import('./welcome/Welcome.tsx'));

function LevelingRedirect() {
  const guildId = useGuildParam();
  return <Navigate to={withGuild('/dashboard/leveling/settings', guildId)} replace />;
}

export default function DashboardApp() {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <Routes>
        <Route element={<DashboardLayout />}>
          <Route index element={<Overview />} />
          <Route path="stats" element={<Lazy page={<Stats />} />} />
          <Route path="reaction-roles" element={<Lazy page={<ReactionRoles />} />} />
          <Route path="custom-reaction-roles" element={<Lazy page={<RoleMenus />} />} />
          <Route path="color-roles" element={<Lazy page={<ColorRoles />} />} />
          <Route path="leveling" element={<LevelingRedirect />} />
          <Route path="leveling/settings" element={<Lazy page={<LevelingSettings />} />} />
          <Route path="leveling/roles" element={<Lazy page={<LevelingRoles />} />} />
          <Route path="leveling/boosts" element={<Lazy page={<LevelingBoosts />} />} />
          <Route path="leveling/leaderboard" element={<Lazy page={<LevelingLeaderboard />} />} />
          <Route path="leveling/seasons" element={<Lazy page={<LevelingSeasons />} />} />
          <Route path="personality-roles" element={<Lazy page={<PersonalityRoles />} />} />
          <Route path="history" element={<Lazy page={<History />} />} />
          <Route path="welcome" element={<Lazy page={<Welcome />} />} />
          {[...COMING_SOON_PAGES.keys()].map((slug) => (
            <Route key={slug} path={slug} element={<ComingSoon slug={slug} />} />
          ))}
          <Route path="*" element={<NotYetAvailable title="Page not found" />} />
        </Route>
      </Routes>
    </QueryClientProvider>
  );
}

function Lazy({ page }: { page: ReactNode }) {
  return <Suspense fallback={<PageLoading />}>{page}</Suspense>;
}
