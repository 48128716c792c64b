import { render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { MemoryRouter, Routes, useLocation } from 'react-router';

/** Shows the current location so tests can assert on navigation. */
function LocationProbe() {
  const location = useLocation();
  return <output data-testid="location">{location.pathname + location.search}</output>;
}

export function renderAt(path: string, routes: ReactElement) {
  return render(
    <MemoryRouter initialEntries={[path]}>
      <Routes>{routes}</Routes>
      <LocationProbe />
    </MemoryRouter>,
  );
}

export { LocationProbe };
