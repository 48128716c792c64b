import { useEffect, useState } from 'react';
import { afterLoadAndIdle } from '../lib/idle.ts';
import { defaultInviteUrl } from '../lib/invite-url.ts';

/** GET /api/invite-url; on any failure keep the built-in invite link, silently. */
export function useInviteUrl(guildId?: string): string {
  const [url, setUrl] = useState(() => defaultInviteUrl(guildId));
  useEffect(() => {
    let cancelled = false;
    // The API client (and zod) load once the page is idle: the built-in link works until then,
    // and evaluating them during load would block the main thread.
    const cancelLoad = afterLoadAndIdle(() => {
      import('../lib/api.ts')
        .then(({ apiCall }) => {
          if (cancelled) return null;
          return apiCall('getInviteUrl', guildId ? { query: { guildId } } : {});
        })
        .then((result) => {
          if (result && !cancelled) setUrl(result.url);
        })
        .catch(() => undefined);
    });
    return () => {
      cancelled = true;
      cancelLoad();
    };
  }, [guildId]);
  return url;
}
