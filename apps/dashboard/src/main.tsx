import './zod-jitless.ts';
import './styles/base.css';
import { StrictMode, startTransition } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router';
import { App } from './App.tsx';
import { restoreSignInAtStart } from './lib/restore-sign-in.ts';

// A new tab or a restarted browser picks up the browser's sign-in before the first screen (which
// shows its loading state meanwhile). Not on the sign-in's own return, which is signing in anew.
if (window.location.pathname !== '/auth/callback') void restoreSignInAtStart();

const root = document.getElementById('root');
if (!root) throw new Error('#root missing from index.html');
// A transition lets React render the first screen in small slices (it yields every few ms)
// instead of one long task that blocks input on slow phones.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <BrowserRouter>
        <App />
      </BrowserRouter>
    </StrictMode>,
  );
});
