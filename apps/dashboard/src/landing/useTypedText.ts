import { useEffect, useState } from 'react';
import { prefersReducedMotion } from '../lib/preferences.ts';

const TYPE_MS = 45;
const ERASE_MS = 22;

/** Types each line, holds it for `pauseMs`, erases it, moves on. Static with reduced motion. */
export function useTypedText(lines: readonly string[], pauseMs: number): string {
  const [text, setText] = useState(() => (prefersReducedMotion() ? (lines[0] ?? '') : ''));

  useEffect(() => {
    if (prefersReducedMotion() || lines.length === 0) return;
    let line = 0;
    let length = 0;
    let erasing = false;
    let timer = 0;
    const step = () => {
      const current = lines[line] ?? '';
      if (!erasing) {
        length += 1;
        setText(current.slice(0, length));
        if (length >= current.length) {
          erasing = true;
          timer = window.setTimeout(step, pauseMs);
          return;
        }
        timer = window.setTimeout(step, TYPE_MS);
        return;
      }
      length -= 1;
      setText(current.slice(0, Math.max(length, 0)));
      if (length <= 0) {
        erasing = false;
        line = (line + 1) % lines.length;
      }
      timer = window.setTimeout(step, ERASE_MS);
    };
    timer = window.setTimeout(step, 400);
    return () => window.clearTimeout(timer);
  }, [lines, pauseMs]);

  return text;
}
