import { useEffect, useRef } from 'react';
import { useEffectsEnabled } from '../lib/preferences.ts';
import { createStars, type Star, type StarVariant, stepStars } from './stars.ts';

function draw(ctx: CanvasRenderingContext2D, stars: Star[], width: number, height: number): void {
  ctx.clearRect(0, 0, width, height);
  for (const star of stars) {
    const alpha = star.alpha * (0.75 + 0.25 * Math.sin(star.twinkle));
    if (star.trail > 0) {
      const dx = star.trail * 0.33;
      const gradient = ctx.createLinearGradient(star.x, star.y, star.x - dx, star.y - star.trail);
      gradient.addColorStop(0, `rgba(255, 255, 255, ${alpha})`);
      gradient.addColorStop(1, 'rgba(160, 180, 255, 0)');
      ctx.strokeStyle = gradient;
      ctx.lineWidth = star.radius;
      ctx.beginPath();
      ctx.moveTo(star.x, star.y);
      ctx.lineTo(star.x - dx, star.y - star.trail);
      ctx.stroke();
    }
    ctx.fillStyle = `rgba(235, 240, 255, ${alpha})`;
    ctx.beginPath();
    ctx.arc(star.x, star.y, star.radius, 0, Math.PI * 2);
    ctx.fill();
  }
}

/** The animated star background. Renders nothing (and schedules no frames) when effects are off. */
export function StarCanvas({ variant = 'falling' }: { variant?: StarVariant }) {
  const [enabled] = useEffectsEnabled();
  if (!enabled) return null;
  return <AnimatedStars variant={variant} />;
}

function AnimatedStars({ variant }: { variant: StarVariant }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);

  useEffect(() => {
    const canvas = canvasRef.current;
    const ctx = canvas?.getContext('2d');
    if (!canvas || !ctx) return;
    let width = 0;
    let height = 0;
    let stars: Star[] = [];
    let frame = 0;
    let last = 0;

    const resize = () => {
      const ratio = Math.min(window.devicePixelRatio || 1, 2);
      width = window.innerWidth;
      height = window.innerHeight;
      canvas.width = Math.round(width * ratio);
      canvas.height = Math.round(height * ratio);
      ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
      stars = createStars(width, height, variant);
    };
    const tick = (time: number) => {
      const dt = last === 0 ? 1 : Math.min((time - last) / 16.67, 3);
      last = time;
      stepStars(stars, width, height, variant, dt);
      draw(ctx, stars, width, height);
      frame = window.requestAnimationFrame(tick);
    };
    const start = () => {
      if (frame === 0 && document.visibilityState !== 'hidden') {
        last = 0;
        frame = window.requestAnimationFrame(tick);
      }
    };
    const stop = () => {
      if (frame !== 0) window.cancelAnimationFrame(frame);
      frame = 0;
    };
    const onVisibility = () => (document.visibilityState === 'hidden' ? stop() : start());

    resize();
    start();
    window.addEventListener('resize', resize);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      stop();
      window.removeEventListener('resize', resize);
      document.removeEventListener('visibilitychange', onVisibility);
    };
  }, [variant]);

  return (
    <div className="star-layer" aria-hidden="true">
      <canvas ref={canvasRef} className="star-canvas" data-testid="star-canvas" />
    </div>
  );
}
