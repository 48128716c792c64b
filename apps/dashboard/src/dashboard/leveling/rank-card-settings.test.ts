import {
  RANK_CARD_BACKGROUND_MAX_BYTES,
  RANK_CARD_BACKGROUND_NOT_IMAGE,
  RANK_CARD_BACKGROUND_TOO_LARGE,
} from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { ACCENT_INVALID, backgroundFileProblem, parseAccentInput } from './RankCardSettings.tsx';

describe('rank card settings checks', () => {
  it('accepts a PNG or JPEG up to 1 MiB, with the API’s messages otherwise', () => {
    expect(backgroundFileProblem({ type: 'image/png', size: 1000 })).toBeNull();
    expect(backgroundFileProblem({ type: 'image/jpeg', size: RANK_CARD_BACKGROUND_MAX_BYTES })).toBeNull();
    expect(backgroundFileProblem({ type: 'image/jpeg', size: RANK_CARD_BACKGROUND_MAX_BYTES + 1 })).toBe(
      RANK_CARD_BACKGROUND_TOO_LARGE,
    );
    expect(backgroundFileProblem({ type: 'image/gif', size: 10 })).toBe(RANK_CARD_BACKGROUND_NOT_IMAGE);
  });
  it('reads an accent as #RRGGBB, empty as cleared, anything else as a problem', () => {
    expect(parseAccentInput(' #12a4b6 ')).toEqual({ accent: '#12A4B6' });
    expect(parseAccentInput('ff0080')).toEqual({ accent: '#FF0080' });
    expect(parseAccentInput('')).toEqual({ accent: null });
    expect(parseAccentInput('purple')).toEqual({ problem: ACCENT_INVALID });
  });
});
