import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';

// The e2e project runs beside these tests and loads the machine; give async queries room.
configure({ asyncUtilTimeout: 5000 });

afterEach(() => {
  // Server tests run in the node environment: nothing to clean there.
  if (typeof window === 'undefined') return;
  cleanup();
  window.localStorage.clear();
  window.sessionStorage.clear();
});
