import { act, render } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setEffectsEnabled } from '../lib/preferences.ts';
import { EffectsToggle } from '../ui/EffectsToggle.tsx';
import { StarCanvas } from './StarCanvas.tsx';

const fakeContext = {
  setTransform: vi.fn(),
  clearRect: vi.fn(),
  beginPath: vi.fn(),
  arc: vi.fn(),
  fill: vi.fn(),
} as unknown as CanvasRenderingContext2D;

let frames: FrameRequestCallback[];
beforeEach(() => {
  frames = [];
  vi.spyOn(HTMLCanvasElement.prototype, 'getContext').mockReturnValue(fakeContext as never);
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((callback) => {
    frames.push(callback);
    return frames.length;
  });
  vi.spyOn(window, 'cancelAnimationFrame').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.restoreAllMocks();
});

describe('StarCanvas', () => {
  it('renders nothing and schedules no frames when effects are off', () => {
    setEffectsEnabled(false);
    const { container } = render(<StarCanvas />);
    expect(container.querySelector('canvas')).toBeNull();
    expect(window.requestAnimationFrame).not.toHaveBeenCalled();
  });

  it('animates when on, and the persisted toggle turns it off', () => {
    setEffectsEnabled(true);
    const { container, getByRole } = render(
      <>
        <EffectsToggle />
        <StarCanvas />
      </>,
    );
    expect(container.querySelector('canvas')).not.toBeNull();
    expect(window.requestAnimationFrame).toHaveBeenCalledTimes(1);
    act(() => getByRole('button', { name: /FX on/ }).click());
    expect(container.querySelector('canvas')).toBeNull();
    expect(window.cancelAnimationFrame).toHaveBeenCalled();
    expect(window.localStorage.getItem('effects_enabled')).toBe('false');
  });

  it('defaults to off when the user prefers reduced motion', () => {
    vi.spyOn(window, 'matchMedia').mockReturnValue({ matches: true } as MediaQueryList);
    const { container } = render(<StarCanvas />);
    expect(container.querySelector('canvas')).toBeNull();
  });
});
