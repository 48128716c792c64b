import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { useSessionInfo } from '../shared/queries.ts';

/**
 * The platform owner's way into the job queue view (bull-board on the API). The API decides who
 * the owner is; the page it opens needs a one-time ticket, asked for on each click.
 */
export function QueueViewButton() {
  const session = useSessionInfo();
  const [opening, setOpening] = useState(false);
  const [failed, setFailed] = useState(false);
  if (session.data?.is_owner !== true) return null;

  const open = async () => {
    // The tab is opened within the click, so no popup blocker stops it, and cut off from this
    // page before it leaves about:blank.
    const tab = window.open('', '_blank');
    if (tab) tab.opener = null;
    setOpening(true);
    setFailed(false);
    try {
      const { url } = await apiCall('openQueueView');
      if (tab) tab.location.href = url;
      else window.open(url, '_blank', 'noopener');
    } catch {
      tab?.close();
      setFailed(true);
    } finally {
      setOpening(false);
    }
  };

  return (
    <button
      type="button"
      className="btn btn-ghost btn-sm"
      onClick={() => void open()}
      disabled={opening}
      title={failed ? 'The queue view did not open. Try again.' : 'Jobs of every server (opens a new tab)'}
    >
      {failed ? 'Queue view: try again' : 'Queue view'}
    </button>
  );
}
