import { getAuthorizationHeader, hasSignInHint, setRestoring } from './session.ts';

/**
 * At start: a tab without a bearer whose browser holds a sign-in restores it (`restoreSignIn`).
 * Only then is the API client loaded, and with it the contract's route table and zod: a visitor
 * who never signed in downloads none of that with the landing page. The loading state starts at
 * once, as `refreshSession` starts it, so no screen shows signed out while the client loads.
 */
export async function restoreSignInAtStart(): Promise<void> {
  if (getAuthorizationHeader() !== null || !hasSignInHint()) return;
  setRestoring(true);
  try {
    const { restoreSignIn } = await import('./api.ts');
    await restoreSignIn();
  } catch {
    // The client's chunk did not load: the next call that needs the sign-in trades the cookie.
  } finally {
    setRestoring(false);
  }
}
