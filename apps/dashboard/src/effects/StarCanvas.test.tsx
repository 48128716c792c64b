import { act, cleanup, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setEffectsEnabled } from '../lib/preferences.ts';
import { EffectsToggle } from '../ui/EffectsToggle.tsx';
import { StarCanvas } from './StarCanvas.tsx';

/** Every 2D-context method is a recorded no-op; `calls` counts them by name. */
let calls: Map<string, number>;
function fakeContext(): CanvasRenderingContext2D {
  const target: Record<string, unknown> = {};
  return new Proxy(target, {
    get(_, key: string) {
      if (key in target) return target[key];
      return (..._args: unknown[]) => {
        calls.set(key, (calls.get(key) ?? 0) + 1);
        return key === 'createLinearGradient' ? { addColorStop: () => {} } : undefined;
      };
    },
    set(_, key: string, value) {
      target[key] = value;
      return true;
    },
  }) as unknown as CanvasRenderingContext2D;
}
const count = (method: string) => calls.get(method) ?? 0;

let frames: Map<number, FrameRequestCallback>;
let nextFrame: number;
let idle: IdleRequestCallback[];
let observed: IntersectionObserverCallback[];
let visibility: DocumentVisibilityState;

/** Runs the frames requested so far (not those they request), as the browser would next. */
function runFrames(time = 16): void {
  const pending = [...frames.entries()];
  frames.clear();
  for (const [, callback] of pending) callback(time);
}
function runIdle(): void {
  const pending = idle.splice(0);
  for (const callback of pending) callback({ didTimeout: false, timeRemaining: () => 50 });
}
function setVisibility(state: DocumentVisibilityState): void {
  visibility = state;
  act(() => void document.dispatchEvent(new Event('visibilitychange')));
}
function setOnScreen(isIntersecting: boolean): void {
  for (const callback of observed) {
    act(() => callback([{ isIntersecting } as IntersectionObserverEntry], {} as IntersectionObserver));
  }
}

beforeEach(() => {
  calls = new Map();
  frames = new Map();
  nextFrame = 1;
  idle = [];
  observed = [];
  visibility = 'visible';
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockImplementation(() => fakeContext() as never);
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    const id = nextFrame++;
    frames.set(id, callback);
    return id;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation((id) => void frames.delete(id));
  vi.stubGlobal(
    'requestIdleCallback',
    vi.fn((callback: IdleRequestCallback) => idle.push(callback)),
  );
  vi.stubGlobal('cancelIdleCallback', vi.fn());
  vi.stubGlobal(
    'IntersectionObserver',
    class {
      constructor(callback: IntersectionObserverCallback) {
        observed.push(callback);
      }
      observe() {}
      disconnect() {}
    },
  );
  vi.spyOn(document, 'visibilityState', 'get').mockImplementation(() => visibility);
  vi.spyOn(document, 'readyState', 'get').mockReturnValue('complete');
});
afterEach(() => {
  // Unmount while the stubs are still in place.
  cleanup();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

describe('StarCanvas', () => {
  it('renders nothing and schedules no work when effects are off', () => {
    setEffectsEnabled(false);
    const { container } = render(<StarCanvas />);
    expect(container.querySelector('canvas')).toBeNull();
    expect(window.requestIdleCallback).not.toHaveBeenCalled();
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
    expect(HTMLCanvasElement.prototype.getContext).not.toHaveBeenCalled();
  });

  it('starts only once the page is idle, then draws sprites without building gradients per frame', () => {
    setEffectsEnabled(true);
    const { container } = render(<StarCanvas variant="falling" />);
    expect(container.querySelector('canvas')).not.toBeNull();
    // Mounted: nothing drawn, no frame and no context until the main thread is idle.
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
    expect(HTMLCanvasElement.prototype.getContext).not.toHaveBeenCalled();
    act(runIdle);
    expect(frames.size).toBe(1);

    runFrames(16);
    const gradientsAfterFirstFrame = count('createLinearGradient');
    const drawsAfterFirstFrame = count('drawImage');
    expect(drawsAfterFirstFrame).toBeGreaterThanOrEqual(150);
    for (let time = 32; time < 32 + 60 * 16; time += 16) runFrames(time);
    // 60 more frames: one drawImage per star (plus trails), no new gradient, no arc paths.
    expect(count('drawImage')).toBeGreaterThanOrEqual(drawsAfterFirstFrame + 60 * 150);
    expect(count('createLinearGradient')).toBe(gradientsAfterFirstFrame);
    expect(gradientsAfterFirstFrame).toBeLessThanOrEqual(1);
    expect(count('arc')).toBeLessThanOrEqual(1);
    expect(frames.size).toBe(1);
  });

  it('redraws the slow drift variant at 30 fps, asking for no frame in between', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    setEffectsEnabled(true);
    /** Draws and frame requests over one second of 60 Hz vsyncs. */
    const oneSecond = (variant: 'drift' | 'falling') => {
      const { unmount } = render(<StarCanvas variant={variant} />);
      act(runIdle);
      runFrames(1000);
      const draws = count('drawImage');
      const requests = vi.mocked(window.requestAnimationFrame).mock.calls.length;
      for (let i = 1; i <= 60; i++) {
        vi.advanceTimersByTime(1000 / 60);
        runFrames(1000 + (i * 1000) / 60);
      }
      unmount();
      return {
        draws: Math.floor((count('drawImage') - draws) / 150),
        requests: vi.mocked(window.requestAnimationFrame).mock.calls.length - requests,
      };
    };
    const drift = oneSecond('drift');
    expect(drift.draws).toBe(30);
    expect(drift.requests).toBeLessThanOrEqual(31);
    const falling = oneSecond('falling');
    expect(falling.draws).toBeGreaterThanOrEqual(60);
    expect(falling.requests).toBe(60);
  });

  it('caps the pixel ratio at 2', () => {
    setEffectsEnabled(true);
    vi.spyOn(window, 'devicePixelRatio', 'get').mockReturnValue(3);
    const { getByTestId } = render(<StarCanvas />);
    act(runIdle);
    const canvas = getByTestId('star-canvas') as HTMLCanvasElement;
    expect(canvas.width).toBe(window.innerWidth * 2);
    expect(canvas.height).toBe(window.innerHeight * 2);
  });

  it('schedules no frames while the tab is hidden, and resumes when it is shown', () => {
    setEffectsEnabled(true);
    render(<StarCanvas />);
    act(runIdle);
    runFrames();
    expect(frames.size).toBe(1);

    setVisibility('hidden');
    expect(frames.size).toBe(0);
    const requested = vi.mocked(window.requestAnimationFrame).mock.calls.length;
    runFrames();
    expect(vi.mocked(window.requestAnimationFrame).mock.calls.length).toBe(requested);

    setVisibility('visible');
    expect(frames.size).toBe(1);
  });

  it('does not start while hidden when the idle callback comes', () => {
    setEffectsEnabled(true);
    visibility = 'hidden';
    render(<StarCanvas />);
    act(runIdle);
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
  });

  it('pauses while the canvas is off screen', () => {
    setEffectsEnabled(true);
    render(<StarCanvas />);
    act(runIdle);
    expect(frames.size).toBe(1);
    setOnScreen(false);
    expect(frames.size).toBe(0);
    setOnScreen(true);
    expect(frames.size).toBe(1);
  });

  it('animates when on, and the persisted toggle turns it off', () => {
    setEffectsEnabled(true);
    const { container, getByRole } = render(
      <>
        <EffectsToggle />
        <StarCanvas />
      </>,
    );
    act(runIdle);
    expect(container.querySelector('canvas')).not.toBeNull();
    expect(frames.size).toBe(1);
    act(() => getByRole('button', { name: /Effects on/ }).click());
    expect(container.querySelector('canvas')).toBeNull();
    expect(frames.size).toBe(0);
    expect(window.localStorage.getItem('effects_enabled')).toBe('false');
  });

  it('turned off before the page idles, it never starts', () => {
    setEffectsEnabled(true);
    const { getByRole } = render(
      <>
        <EffectsToggle />
        <StarCanvas />
      </>,
    );
    act(() => getByRole('button', { name: /Effects on/ }).click());
    expect(window.cancelIdleCallback).toHaveBeenCalled();
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
  });

  it('defaults to off when the user prefers reduced motion', () => {
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    const { container } = render(<StarCanvas />);
    expect(container.querySelector('canvas')).toBeNull();
    expect(window.requestIdleCallback).not.toHaveBeenCalled();
  });
});
