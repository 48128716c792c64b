import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// A deadline for what a test waits to see, not a measure of speed: the e2e project runs beside
// these tests, on a machine that may be busy with more, and a job card needs a few polls.
configure({ asyncUtilTimeout: 15_000 });

/**
 * Browser-side unit tests have no API: a request `fakeApi` does not answer (none installed, or one made after
 * a test put the real `fetch` back) is refused here instead of reaching for the default API URL,
 * 127.0.0.1:4000, where a developer's `pnpm dev` may be listening.
 */
const noNetwork = (input: RequestInfo | URL): Promise<Response> => {
  const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
  return Promise.reject(new TypeError(`fetch failed: unit tests have no network (${url})`));
};
// Server tests (node environment) fetch their own server for real.
if (typeof window !== 'undefined') {
  globalThis.fetch = noNetwork as typeof fetch;
  window.fetch = noNetwork as typeof fetch;
}

afterEach(() => {
  // Server tests run in the node environment: nothing to clean there.
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
