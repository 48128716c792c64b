/** How long work queued with `afterLoadAndIdle` may wait for an idle moment before it runs anyway. */
const IDLE_TIMEOUT_MS = 2000;
/** Where requestIdleCallback is missing (Safari), a short timeout after load stands in. */
const FALLBACK_DELAY_MS = 200;

/**
 * Runs `callback` once the page has loaded and the main thread is idle, so that work nobody
 * waits for (background animation, prefetching) stays out of the first paint and first input.
 * Returns a cancel function.
 */
export function afterLoadAndIdle(callback: () => void): () => void {
  let cancelled = false;
  let cancelIdle = () => {};
  const idle = () => {
    if (cancelled) return;
    if (typeof window.requestIdleCallback === 'function') {
      const id = window.requestIdleCallback(() => callback(), { timeout: IDLE_TIMEOUT_MS });
      cancelIdle = () => window.cancelIdleCallback(id);
    } else {
      const id = window.setTimeout(callback, FALLBACK_DELAY_MS);
      cancelIdle = () => window.clearTimeout(id);
    }
  };
  if (document.readyState === 'complete') idle();
  else window.addEventListener('load', idle, { once: true });
  return () => {
    cancelled = true;
    window.removeEventListener('load', idle);
    cancelIdle();
  };
}
