import { useEffect, useRef } from 'react';
import { afterLoadAndIdle } from '../lib/idle.ts';
import { useEffectsEnabled } from '../lib/preferences.ts';
import { drawStars, starSprites } from './star-sprites.ts';
import { createStars, type Star, type StarVariant, stepStars } from './stars.ts';

/** Sharper than 2x buys nothing for sub-pixel dots and quadruples the pixels to clear. */
export const MAX_PIXEL_RATIO = 2;
/**
 * The slow drift (under 0.15 px a frame) looks the same at 30 fps and costs half the redraws;
 * falling stars keep every frame so the shooting ones stay smooth.
 */
export const FRAME_INTERVAL_MS: Record<StarVariant, number> = { drift: 1000 / 30, falling: 0 };
/** The animated star background. Renders nothing (and schedules no work) when effects are off. */
export function StarCanvas({ variant = 'falling' }: { variant?: StarVariant }) {
  const [enabled] = useEffectsEnabled();
  if (!enabled) return null;
  return <AnimatedStars variant={variant} />;
}

function AnimatedStars({ variant }: { variant: StarVariant }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!canvas) return;
    let ctx: CanvasRenderingContext2D | null = null;
    let width = 0;
    let height = 0;
    let ratio = 1;
    let stars: Star[] = [];
    let frame = 0;
    let last = 0;
    let ready = false;
    let onScreen = true;

    const resize = () => {
      if (!ctx) return;
      ratio = Math.min(window.devicePixelRatio || 1, MAX_PIXEL_RATIO);
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      stars = createStars(width, height, variant);
    };
    const interval = FRAME_INTERVAL_MS[variant];
    /** A pending setTimeout: a throttled variant sleeps between frames rather than asking for
     * every vsync (each requested frame costs the browser a full main-thread frame). */
    let wait = 0;
    const requestFrame = () => {
      wait = 0;
      frame = window.requestAnimationFrame(tick);
    };
    const tick = (time: number) => {
      frame = 0;
      if (!ctx) return;
      // A millisecond of slack: a 60 Hz display hands out 16.6/16.8 ms gaps, not exact halves.
      if (last !== 0 && time - last < interval - 1) return requestFrame();
      const dt = last === 0 ? 1 : Math.min((time - last) / 16.67, 3);
      last = time;
      stepStars(stars, width, height, variant, dt);
      drawStars(ctx, stars, width, height, ratio, starSprites());
      // Wake after the next vsync has passed, so the frame requested then is the one due.
      if (interval > 0) wait = window.setTimeout(requestFrame, interval - 12);
      else requestFrame();
    };
    const stop = () => {
      if (frame !== 0) window.cancelAnimationFrame(frame);
      if (wait !== 0) window.clearTimeout(wait);
      frame = 0;
      wait = 0;
    };
    /** Animates only while started, the tab is visible and the canvas is on screen. */
    const update = () => {
      const run = ready && onScreen && document.visibilityState !== 'hidden';
      if (!run) return stop();
      if (frame === 0 && wait === 0) {
        last = 0;
        requestFrame();
      }
    };
    // Resizing re-seeds the stars; coalesce a drag's resize events into one per frame.
    let resizeFrame = 0;
    const onResize = () => {
      if (resizeFrame !== 0) return;
      resizeFrame = window.requestAnimationFrame(() => {
        resizeFrame = 0;
        resize();
      });
    };

    const observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver((entries) => {
            const entry = entries.at(-1);
            if (!entry) return;
            onScreen = entry.isIntersecting;
            update();
          })
        : null;
    observer?.observe(canvas);
    document.addEventListener('visibilitychange', update);
    // Nothing (not even the canvas's backing store) is set up until the page has loaded and idled.
    const cancelStart = afterLoadAndIdle(() => {
      ctx = canvas.getContext('2d');
      if (!ctx) return;
      resize();
      window.addEventListener('resize', onResize);
      ready = true;
      update();
    });
    return () => {
      cancelStart();
      ready = false;
      stop();
      if (resizeFrame !== 0) window.cancelAnimationFrame(resizeFrame);
      observer?.disconnect();
      document.removeEventListener('visibilitychange', update);
      window.removeEventListener('resize', onResize);
    };
  }, [variant]);

  return (
    <div className="star-layer" aria-hidden="true">
      <canvas ref={canvasRef} className="star-canvas" data-testid="star-canvas" />
    </div>
  );
}
