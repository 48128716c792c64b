import { XP_IMPORT_MODES, type XpImportResult } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { type ImportPreview, previewImport } from './xp-import.ts';

export const IMPORT_FAILURE = 'Failed to import XP';

const MODE_TEXT = {
  replace: "Replace: a listed member's XP becomes the file's.",
  add: "Add: the file's XP is added to what a listed member has.",
} as const;

const count = (n: number, one: string, many: string) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/**
 * Import XP from a CSV (`user_id,xp`) or a MEE6 leaderboard JSON: the file's first rows as the
 * API will read them, then the upload, what was imported and skipped (the skipped rows with why),
 * and the Sync Roles job that brings rewards in line.
 */
export function XpImportCard({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [mode, setMode] = useState<(typeof XP_IMPORT_MODES)[number]>('replace');
  const tracker = useGuildJob(queryKeys.leaderboard(guildId));
  const fileInput = useRef<HTMLInputElement>(null);
  const upload = useMutation({
    mutationFn: (picked: { file: File; type: string }) =>
      apiCall('importXp', {
        params: { guildId },
        query: { mode },
        file: { type: picked.type, data: picked.file },
      }),
    onSuccess: (result) => {
      // Imported: the button goes until a file is picked again (a second click in add mode would
      // add the file twice), and the box is emptied so the same file can be picked again.
      if (fileInput.current) fileInput.current.value = '';
      if (result.job_id) tracker.track(result.job_id);
      // The new XP ranks members at once; the job only brings their reward roles in line.
      void queryClient.invalidateQueries({ queryKey: queryKeys.leaderboard(guildId) });
    },
  });

  const pick = async (picked: File | null) => {
    upload.reset();
    setFile(picked);
    setPreview(picked ? previewImport(picked.name, await picked.text()) : null);
  };

  return (
    <section className="card form-card xp-import" aria-labelledby="xp-import-title">
      <h2 id="xp-import-title">Import XP</h2>
      <p className="muted small">
        A CSV file with a header naming <code>user_id</code> and <code>xp</code> (other columns are ignored),
        or the JSON of a MEE6 leaderboard page (<code>{'{ "players": [...] }'}</code>). Up to 100,000 rows.
      </p>
      <div className="field">
        <label htmlFor="xp-import-file">File</label>
        <input
          id="xp-import-file"
          ref={fileInput}
          className="input"
          type="file"
          accept=".csv,text/csv,.json,application/json"
          onChange={(event) => void pick(event.target.files?.[0] ?? null)}
        />
      </div>
      {preview && !preview.ok ? (
        <p className="alert alert-error small" role="alert">
          {preview.problem}
        </p>
      ) : null}
      {preview?.ok ? <PreviewTable preview={preview} /> : null}
      {preview?.ok && file && !upload.isSuccess ? (
        <>
          <fieldset className="choice-list">
            <legend className="small">Mode</legend>
            {XP_IMPORT_MODES.map((value) => (
              <label key={value} className="choice">
                <input
                  type="radio"
                  name="xp-import-mode"
                  value={value}
                  checked={mode === value}
                  onChange={() => setMode(value)}
                />
                <span>{MODE_TEXT[value]}</span>
              </label>
            ))}
          </fieldset>
          <div className="button-row">
            <button
              type="button"
              className="btn btn-primary"
              disabled={upload.isPending || tracker.running}
              onClick={() => upload.mutate({ file, type: preview.type })}
            >
              {upload.isPending ? 'Importing…' : `Import ${count(preview.total, 'row', 'rows')}`}
            </button>
          </div>
        </>
      ) : null}
      <ErrorBox onDismiss={() => upload.reset()}>
        {upload.isError ? errorText(upload.error, IMPORT_FAILURE) : null}
      </ErrorBox>
      {upload.data ? <ImportResult result={upload.data} /> : null}
      {tracker.job ? <JobProgress job={tracker.job} /> : null}
    </section>
  );
}

function PreviewTable({ preview }: { preview: Extract<ImportPreview, { ok: true }> }) {
  const named = preview.rows.some((row) => row.username !== null);
  return (
    <div className="import-preview">
      <p className="small">
        {preview.kind === 'csv' ? 'CSV' : 'MEE6 JSON'}, {count(preview.total, 'row', 'rows')}
        {preview.skipped > 0 ? ` (${count(preview.skipped, 'row', 'rows')} will be skipped)` : ''}
        {preview.total > preview.rows.length ? `; the first ${preview.rows.length}:` : ':'}
      </p>
      <div className="table-scroll">
        <table className="import-table">
          <caption className="sr-only">First rows of the file</caption>
          <thead>
            <tr>
              <th scope="col">Row</th>
              <th scope="col">user_id</th>
              {named ? <th scope="col">username</th> : null}
              <th scope="col">xp</th>
              <th scope="col">Note</th>
            </tr>
          </thead>
          <tbody>
            {preview.rows.map((row) => (
              <tr key={row.row} className={row.problem ? 'is-skipped' : undefined}>
                <td>{row.row}</td>
                <td className="mono">{row.userId}</td>
                {named ? <td>{row.username ?? ''}</td> : null}
                <td className="mono">{row.xp}</td>
                <td className="small">{row.problem ? `Will be skipped: ${row.problem}` : ''}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ImportResult({ result }: { result: XpImportResult }) {
  const unlisted = result.skipped - result.skipped_rows.length;
  return (
    <div className="import-result" role="status">
      <p>
        <strong>Imported {count(result.imported, 'member', 'members')}</strong>
        {result.skipped > 0 ? `, skipped ${count(result.skipped, 'row', 'rows')}.` : '; no row was skipped.'}
      </p>
      {result.skipped_rows.length > 0 ? (
        <ul className="skipped-rows" aria-label="Skipped rows">
          {result.skipped_rows.map((row) => (
            <li key={row.row}>
              Row {row.row}: {row.reason}
            </li>
          ))}
        </ul>
      ) : null}
      {unlisted > 0 ? (
        <p className="muted small">And {count(unlisted, 'more row', 'more rows')} not listed.</p>
      ) : null}
    </div>
  );
}
