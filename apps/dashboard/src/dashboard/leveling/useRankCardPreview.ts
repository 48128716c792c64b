import { useEffect, useRef, useState } from 'react';
import { apiBlob } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';

/** How long the accent must stay put before the preview is drawn again (one request per pause). */
export const PREVIEW_DEBOUNCE_MS = 300;

export interface RankCardPreview {
  /** An object URL of the PNG the API drew, or null before the first one. */
  url: string | null;
  loading: boolean;
  error: string | null;
}

/**
 * The rank card as the API draws it (`GET …/leveling/rank-card/preview`, the worker's own
 * renderer), in `accent` (undefined: the server's), drawn again when the accent pauses or
 * `version` changes (a background uploaded or removed). The previous image stays up until the
 * next one arrives; its object URL is revoked then, and on unmount.
 */
export function useRankCardPreview(guildId: string, accent: string | undefined, version: number) {
  const [preview, setPreview] = useState<RankCardPreview>({ url: null, loading: true, error: null });
  const current = useRef<string | null>(null);

  useEffect(() => {
    const controller = new AbortController();
    setPreview((previous) => ({ ...previous, loading: true, error: null }));
    const timer = setTimeout(() => {
      apiBlob('getRankCardPreview', {
        params: { guildId },
        query: accent ? { accent } : {},
        signal: controller.signal,
      }).then(
        (blob) => {
          if (controller.signal.aborted) return;
          if (current.current) URL.revokeObjectURL(current.current);
          current.current = URL.createObjectURL(blob);
          setPreview({ url: current.current, loading: false, error: null });
        },
        (error: unknown) => {
          if (controller.signal.aborted) return;
          setPreview((previous) => ({
            ...previous,
            loading: false,
            error: errorText(error, 'Failed to draw the preview'),
          }));
        },
      );
    }, PREVIEW_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [guildId, accent, version]);

  useEffect(
    () => () => {
      if (current.current) URL.revokeObjectURL(current.current);
      current.current = null;
    },
    [],
  );
  return preview;
}
