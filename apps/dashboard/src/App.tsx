import { lazy, Suspense } from 'react';
import { Route, Routes } from 'react-router';
import { Landing } from './landing/Landing.tsx';
import { PageLoading } from './ui/PageLoading.tsx';

// Only the landing page is in the initial bundle; everything else loads on navigation.
const Terms = lazy(() => import('./pages/Terms.tsx'));
const Privacy = lazy(() => import('./pages/Privacy.tsx'));
const AuthCallback = lazy(() => import('./pages/AuthCallback.tsx'));
const DashboardApp = lazy(() => import('./dashboard/DashboardApp.tsx'));
const YourData = lazy(() => import('./pages/YourData.tsx'));
const NotFound = lazy(() => import('./pages/NotFound.tsx'));
const LinkedRoles = lazy(() => import('./linked-roles/LinkedRolesPage.tsx'));
// Members open it from a link, often on a phone: its own small chunk, no dashboard code.
const PublicLeaderboard = lazy(() => import('./pages/PublicLeaderboard.tsx'));

export function App() {
  return (
    <Suspense fallback={<PageLoading />}>
      <Routes>
        <Route path="/" element={<Landing />} />
        <Route path="/terms" element={<Terms />} />
        <Route path="/privacy" element={<Privacy />} />
        <Route path="/account" element={<YourData />} />
        <Route path="/linked-roles" element={<LinkedRoles />} />
        <Route path="/auth/callback" element={<AuthCallback />} />
        <Route path="/dashboard/*" element={<DashboardApp />} />
        <Route path="/leaderboard/:guildId" element={<PublicLeaderboard />} />
        <Route path="*" element={<NotFound />} />
      </Routes>
    </Suspense>
  );
}
