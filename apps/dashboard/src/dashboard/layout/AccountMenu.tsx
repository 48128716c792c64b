import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { signOutEveryTab } from '../../lib/session.ts';
import { YOUR_DATA_PATH } from '../../pages/Privacy.tsx';

type Ending = 'idle' | 'here' | 'everywhere';

/**
 * The header's account menu: sign this browser out (every tab of it), or sign out everywhere
 * (every browser and device of the user). Either way every tab of this browser forgets the
 * sign-in at once (`signOutEveryTab`); other browsers find out on their next call.
 */
export function AccountMenu() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [ending, setEnding] = useState<Ending>('idle');
  const [problem, setProblem] = useState<string | null>(null);
  const menuId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const close = (event: Event) => {
      if (
        event instanceof KeyboardEvent
          ? event.key === 'Escape'
          : !root.current?.contains(event.target as Node)
      ) {
        setOpen(false);
      }
    };
    document.addEventListener('keydown', close);
    document.addEventListener('pointerdown', close);
    return () => {
      document.removeEventListener('keydown', close);
      document.removeEventListener('pointerdown', close);
    };
  }, [open]);

  const signedOut = () => {
    signOutEveryTab();
    queryClient.clear();
    navigate('/', { replace: true });
  };

  const signOut = async () => {
    setEnding('here');
    try {
      await apiCall('logout');
    } catch {
      // This browser forgets the sign-in either way.
    }
    signedOut();
  };

  const signOutEverywhere = async () => {
    setEnding('everywhere');
    setProblem(null);
    try {
      await apiCall('logoutEverywhere');
    } catch (error) {
      // The other devices are still signed in: say so, and stay here to try again.
      setEnding('idle');
      setProblem(errorText(error, 'Signing out everywhere failed'));
      return;
    }
    signedOut();
  };

  const items = [
    { ending: 'here', label: 'Sign out', hint: 'This browser', run: signOut },
    {
      ending: 'everywhere',
      label: 'Sign out everywhere',
      hint: 'Every browser and device',
      run: signOutEverywhere,
    },
  ] as const;

  return (
    <div className="account-menu" ref={root}>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={menuId}
        onClick={() => setOpen((current) => !current)}
      >
        Account <span aria-hidden="true">▾</span>
      </button>
      {open ? (
        <div className="account-menu-list card" role="menu" id={menuId} aria-label="Account">
          <Link role="menuitem" className="account-menu-item" to={YOUR_DATA_PATH}>
            Your data
            <span className="account-menu-hint">Download or delete it</span>
          </Link>
          {items.map((item) => (
            <button
              key={item.ending}
              type="button"
              role="menuitem"
              className="account-menu-item"
              disabled={ending !== 'idle'}
              onClick={() => void item.run()}
            >
              {ending === item.ending ? `${item.label}…` : item.label}
              <span className="account-menu-hint">{item.hint}</span>
            </button>
          ))}
          {problem ? (
            <p role="alert" className="alert alert-error small account-menu-problem">
              Error: {problem}
            </p>
          ) : null}
        </div>
      ) : null}
    </div>
  );
}
