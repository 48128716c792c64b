/**
 * The rank card's look: the server's accent color (cleared: the bot's role color) and its own
 * background image (PNG or JPEG up to 1 MiB, checked here with the API's own messages before
 * the upload), with a preview drawn on a canvas from core's RANK_CARD_LAYOUT, as the bot draws it.
 */
import {
  RANK_CARD_ACCENT_PATTERN,
  RANK_CARD_BACKGROUND_MAX_BYTES,
  RANK_CARD_BACKGROUND_NOT_IMAGE,
  RANK_CARD_BACKGROUND_TOO_LARGE,
  RANK_CARD_BACKGROUND_TYPES,
} from '@spacecadet/contract';
import { DEFAULT_ACCENT_COLOR, RANK_CARD_LAYOUT as L } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { queryKeys } from '../shared/queries.ts';
import { useLeveling } from './leveling-model.ts';

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

const hex = (n: number) => `#${n.toString(16).padStart(6, '0')}`;

/** Draws the card's frame, background (cover-fit, darkened), accent stripe, avatar ring and bar. */
function drawPreview(canvas: HTMLCanvasElement, accent: string, background: HTMLImageElement | null): void {
  const ctx = canvas.getContext('2d');
  if (!ctx) return;
  const inner = { x: L.padding / 2, y: L.padding / 2, w: L.width - L.padding, h: L.height - L.padding };
  ctx.clearRect(0, 0, L.width, L.height);
  ctx.fillStyle = '#1e1f22';
  ctx.fillRect(0, 0, L.width, L.height);
  ctx.fillStyle = '#2b2d31';
  ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
  if (background) {
    const scale = Math.max(inner.w / background.width, inner.h / background.height);
    const dw = background.width * scale;
    const dh = background.height * scale;
    ctx.save();
    ctx.beginPath();
    ctx.rect(inner.x, inner.y, inner.w, inner.h);
    ctx.clip();
    ctx.drawImage(background, inner.x + (inner.w - dw) / 2, inner.y + (inner.h - dh) / 2, dw, dh);
    ctx.fillStyle = 'rgba(0, 0, 0, 0.55)';
    ctx.fillRect(inner.x, inner.y, inner.w, inner.h);
    ctx.restore();
  }
  ctx.fillStyle = accent;
  ctx.fillRect(inner.x, inner.y + 18, 6, inner.h - 36);
  const { x, y, size } = L.avatar;
  ctx.fillStyle = '#404249';
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2, 0, Math.PI * 2);
  ctx.fill();
  ctx.strokeStyle = accent;
  ctx.lineWidth = 6;
  ctx.beginPath();
  ctx.arc(x + size / 2, y + size / 2, size / 2 + 3, 0, Math.PI * 2);
  ctx.stroke();
  ctx.fillStyle = '#ffffff';
  ctx.font = `700 ${L.fontSize.name}px sans-serif`;
  ctx.fillText('Member', L.text.x, L.text.nameY + 32);
  ctx.fillStyle = '#404249';
  ctx.fillRect(L.bar.x, L.bar.y, L.bar.width, L.bar.height);
  ctx.fillStyle = accent;
  ctx.fillRect(L.bar.x, L.bar.y, L.bar.width * 0.6, L.bar.height);
}

/** The rank card's writes: the accent, the background's upload and its removal. */
function useRankCardWrites(guildId: string, setProblem: (problem: string) => void, onRemoved: () => void) {
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
    onSuccess: () => void reload(),
    onError: (error) => setProblem(errorText(error, 'Failed to upload the background')),
  });
  const remove = useMutation({
    mutationFn: () => apiCall('deleteRankCardBackground', { params: { guildId } }),
    onSuccess: () => {
      onRemoved();
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
  const [picked, setPicked] = useState<HTMLImageElement | null>(null);
  const canvas = useRef<HTMLCanvasElement>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const { saveAccent, upload, remove } = useRankCardWrites(guildId, setProblem, () => {
    setPicked(null);
    if (fileInput.current) fileInput.current.value = '';
  });

  const typed = parseAccentInput(accentText);
  const previewAccent =
    'accent' in typed && typed.accent ? typed.accent : (storedAccent ?? hex(DEFAULT_ACCENT_COLOR));
  useEffect(() => {
    if (canvas.current) drawPreview(canvas.current, previewAccent, picked);
  }, [previewAccent, picked]);

  const pick = (file: File | null) => {
    setProblem(null);
    if (!file) return;
    const refused = backgroundFileProblem(file);
    if (refused) {
      setProblem(refused);
      if (fileInput.current) fileInput.current.value = '';
      return;
    }
    const image = new Image();
    image.onload = () => setPicked(image);
    image.src = URL.createObjectURL(file);
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
        {'problem' in typed ? <p className="field-error small">{typed.problem}</p> : null}
      </div>
      <div className="button-row">
        <button
          type="button"
          className="button"
          disabled={'problem' in typed || saveAccent.isPending}
          onClick={() => 'accent' in typed && saveAccent.mutate(typed.accent)}
        >
          Save accent
        </button>
        <button
          type="button"
          className="button button-secondary"
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
          className="button button-secondary"
          disabled={remove.isPending}
          onClick={() => remove.mutate()}
        >
          Remove background
        </button>
      ) : null}
      <canvas
        ref={canvas}
        className="rank-card-preview"
        width={L.width}
        height={L.height}
        style={{ maxWidth: '100%', height: 'auto' }}
        aria-label="Rank card preview"
      />
    </fieldset>
  );
}
