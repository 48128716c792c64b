/**
 * The rank card's look: the server's accent color (cleared: the bot's role color) and its own
 * background image (PNG or JPEG up to 1 MiB, checked here with the API's own messages before
 * the upload), with a preview the API draws with the bot's own renderer (useRankCardPreview):
 * what the admin sees is what members get.
 */
import {
  RANK_CARD_ACCENT_PATTERN,
  RANK_CARD_BACKGROUND_MAX_BYTES,
  RANK_CARD_BACKGROUND_NOT_IMAGE,
  RANK_CARD_BACKGROUND_TOO_LARGE,
  RANK_CARD_BACKGROUND_TYPES,
} from '@spacecadet/contract';
import { RANK_CARD_LAYOUT as L, rankCardAltText, sampleRankCardModel } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { useSession } from '../../lib/session.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { queryKeys } from '../shared/queries.ts';
import { useLeveling } from './leveling-model.ts';
import { type RankCardPreview, useRankCardPreview } from './useRankCardPreview.ts';

export const ACCENT_INVALID = 'The accent must be a color like #5865F2';

/** The file's problem before upload (the API's words), or null when it may be sent. */
export function backgroundFileProblem(file: { type: string; size: number }): string | null {
  if (!(RANK_CARD_BACKGROUND_TYPES as readonly string[]).includes(file.type))
    return RANK_CARD_BACKGROUND_NOT_IMAGE;
  if (file.size > RANK_CARD_BACKGROUND_MAX_BYTES) return RANK_CARD_BACKGROUND_TOO_LARGE;
  return null;
}

/** The accent as typed, checked: `#rrggbb`, null (cleared), or a problem. */
export function parseAccentInput(text: string): { accent: string | null } | { problem: string } {
  const trimmed = text.trim();
  if (trimmed === '') return { accent: null };
  const value = trimmed.startsWith('#') ? trimmed : `#${trimmed}`;
  return RANK_CARD_ACCENT_PATTERN.test(value) ? { accent: value.toUpperCase() } : { problem: ACCENT_INVALID };
}

/** The rank card's writes: the accent, the background's upload and its removal. */
function useRankCardWrites(
  guildId: string,
  setProblem: (problem: string) => void,
  onChanged: (what: 'uploaded' | 'removed') => void,
) {
  const queryClient = useQueryClient();
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });
  const saveAccent = useMutation({
    mutationFn: (accent: string | null) =>
      apiCall('putLeveling', { params: { guildId }, body: { rank_card_accent: accent } }),
    onSuccess: () => void reload(),
    onError: (error) => setProblem(errorText(error, 'Failed to save the accent')),
  });
  const upload = useMutation({
    mutationFn: (file: File) =>
      apiCall('putRankCardBackground', { params: { guildId }, file: { type: file.type, data: file } }),
    onSuccess: () => {
      onChanged('uploaded');
      void reload();
    },
    onError: (error) => setProblem(errorText(error, 'Failed to upload the background')),
  });
  const remove = useMutation({
    mutationFn: () => apiCall('deleteRankCardBackground', { params: { guildId } }),
    onSuccess: () => {
      onChanged('removed');
      void reload();
    },
    onError: (error) => setProblem(errorText(error, 'Failed to remove the background')),
  });
  return { saveAccent, upload, remove };
}

export function RankCardSettings({ guildId }: { guildId: string }) {
  const state = useLeveling(guildId).data;
  const storedAccent = state?.leveling.rank_card_accent ?? null;
  const [accentText, setAccentText] = useState(storedAccent ?? '');
  const [problem, setProblem] = useState<string | null>(null);
  // Bumped after a background upload or removal: the preview is drawn again with it.
  const [backgroundVersion, setBackgroundVersion] = useState(0);
  const fileInput = useRef<HTMLInputElement>(null);
  const { saveAccent, upload, remove } = useRankCardWrites(guildId, setProblem, (what) => {
    setBackgroundVersion((version) => version + 1);
    if (what === 'removed' && fileInput.current) fileInput.current.value = '';
  });

  const typed = parseAccentInput(accentText);
  // The accent being typed, once it is one; else (empty, or half typed) the server's.
  const previewAccent = 'accent' in typed && typed.accent ? typed.accent : undefined;
  const preview = useRankCardPreview(guildId, previewAccent, backgroundVersion);
  const alt = rankCardAltText(sampleRankCardModel(useSession().user?.username ?? 'Member'));

  const pick = (file: File | null) => {
    setProblem(null);
    if (!file) return;
    const refused = backgroundFileProblem(file);
    if (refused) {
      setProblem(refused);
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    upload.mutate(file);
  };

  return (
    <fieldset className="settings-group">
      <legend>Rank card</legend>
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      <div className="field">
        <label htmlFor="lv-rank_card_accent">Accent color</label>
        <input
          id="lv-rank_card_accent"
          className="input"
          placeholder="#5865F2 (empty: the bot's role color)"
          value={accentText}
          onChange={(event) => setAccentText(event.target.value)}
        />
        {'problem' in typed ? <p className="alert alert-error small">{typed.problem}</p> : null}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-primary btn-sm"
          disabled={'problem' in typed || saveAccent.isPending}
          onClick={() => 'accent' in typed && saveAccent.mutate(typed.accent)}
        >
          Save accent
        </button>
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={storedAccent === null || saveAccent.isPending}
          onClick={() => {
            setAccentText('');
            saveAccent.mutate(null);
          }}
        >
          Clear accent
        </button>
      </div>
      <div className="field">
        <label htmlFor="lv-rank_card_background">Background image (PNG or JPEG, up to 1 MiB)</label>
        <input
          id="lv-rank_card_background"
          ref={fileInput}
          className="input"
          type="file"
          accept="image/png,image/jpeg"
          onChange={(event) => pick(event.target.files?.[0] ?? null)}
        />
      </div>
      {state?.rank_card_background ? (
        <button
          type="button"
          className="btn btn-secondary btn-sm"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          Remove background
        </button>
      ) : null}
      <RankCardPreviewImage preview={preview} alt={alt} />
    </fieldset>
  );
}

/** The preview as the API drew it, at the card's aspect ratio (no jump while it loads). */
function RankCardPreviewImage({ preview, alt }: { preview: RankCardPreview; alt: string }) {
  return (
    <div className="rank-card-preview" aria-busy={preview.loading}>
      {preview.url ? (
        <img src={preview.url} alt={alt} width={L.width} height={L.height} />
      ) : (
        <div
          className="rank-card-preview-placeholder"
          style={{ aspectRatio: `${L.width} / ${L.height}`, maxWidth: L.width }}
        />
      )}
      {preview.loading ? <p className="muted small">Drawing the preview…</p> : null}
      {preview.error ? (
        <p className="alert alert-error small" role="alert">
          {preview.error}
        </p>
      ) : null}
    </div>
  );
}
