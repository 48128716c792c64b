import { render, screen, waitFor } from '@testing-library/react';
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

/**
 * A button found and ready to click: a page renders its buttons disabled while it still asks the API
 * (is the bot in the server, is a job running), and a click on a disabled button does nothing.
 */
export async function findEnabledButton(name: string | RegExp): Promise<HTMLElement> {
  const button = await screen.findByRole('button', { name });
  await waitFor(() => {
    if ((button as HTMLButtonElement).disabled)
      throw new Error(`the "${String(name)}" button is still disabled`);
  });
  return button;
}
