/**
 * The landing page's Sign in buttons. The sign-in code (PKCE, the page to come back to) loads on
 * the click rather than with the page, which most visitors read without signing in.
 */
export function signIn(): void {
  void import('../lib/oauth.ts').then(({ startSignIn }) => startSignIn());
}
