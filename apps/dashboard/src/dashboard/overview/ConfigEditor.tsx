import { CONFIG_NOT_OBJECT, type GuildConfig, MESSAGES } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { queryKeys } from '../shared/queries.ts';

/**
 * Parses editor text as a JSON object; else the sentence saying what is wrong with it (not JSON
 * at all, or JSON that is not an object).
 */
export function parseConfigText(text: string): { data: Record<string, unknown> } | { problem: string } {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { problem: MESSAGES.invalidJson };
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? { data: value as Record<string, unknown> }
    : { problem: CONFIG_NOT_OBJECT };
}

/** The beta raw JSON editor: loading, editing, saving. */
/** The editor's element id: the overview's Server settings button jumps to it. */
export const CONFIG_EDITOR_ID = 'server-config';

export function ConfigEditor({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const config = useQuery({
    queryKey: queryKeys.config(guildId),
    queryFn: () => apiCall('getConfig', { params: { guildId } }),
  });
  const [draft, setDraft] = useState<string | null>(null);
  const [problem, setProblem] = useState<string | null>(null);
  const [saved, setSaved] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (data: Record<string, unknown>) => apiCall('putConfig', { params: { guildId }, body: data }),
    onSuccess: async (receipt) => {
      setSaved(receipt.updated_at ? `Saved ${new Date(receipt.updated_at).toLocaleString()}` : 'Saved');
      setDraft(null);
      await queryClient.invalidateQueries({ queryKey: queryKeys.config(guildId) });
    },
  });

  const serverText = config.data ? JSON.stringify(config.data.data, null, 2) : '';
  const text = draft ?? serverText;
  const status = config.isPending ? 'loading' : save.isPending ? 'saving' : 'editing';

  const onSave = () => {
    const parsed = parseConfigText(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    save.mutate(parsed.data);
  };
  const onFormat = () => {
    const parsed = parseConfigText(text);
    if ('problem' in parsed) {
      setProblem(parsed.problem);
      return;
    }
    setProblem(null);
    setDraft(JSON.stringify(parsed.data, null, 2));
  };

  return (
    <section
      id={CONFIG_EDITOR_ID}
      className="card config-editor"
      aria-labelledby="config-title"
      data-status={status}
    >
      <ConfigEditorHead config={config.data} />
      <ErrorBox>{config.isError ? errorText(config.error) : null}</ErrorBox>
      <label htmlFor="config-json" className="sr-only">
        Configuration JSON
      </label>
      <textarea
        id="config-json"
        className="textarea config-textarea"
        spellCheck={false}
        rows={12}
        value={status === 'loading' ? 'Loading…' : text}
        disabled={status === 'loading'}
        aria-invalid={problem !== null}
        aria-describedby={problem ? 'config-problem' : undefined}
        onChange={(event) => {
          setDraft(event.target.value);
          setSaved(null);
        }}
      />
      {problem ? <ErrorAlert id="config-problem">{problem}</ErrorAlert> : null}
      <ErrorBox onDismiss={() => save.reset()}>{save.isError ? errorText(save.error) : null}</ErrorBox>
      <div className="button-row">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={status !== 'editing'}>
          {status === 'saving' ? 'Saving…' : 'Save'}
        </button>
        <button
          type="button"
          className="btn btn-secondary"
          onClick={onFormat}
          disabled={status !== 'editing'}
        >
          Format JSON
        </button>
        {saved ? (
          <output className="save-note" aria-live="polite">
            {saved}
          </output>
        ) : null}
      </div>
    </section>
  );
}

/** The editor's title (with its Beta badge) and when and by whom the configuration was last saved. */
function ConfigEditorHead({ config }: { config: GuildConfig | undefined }) {
  return (
    <div className="config-editor-head">
      <h2 id="config-title">
        Raw configuration <span className="badge badge-beta">Beta</span>
      </h2>
      {config?.updated_at ? (
        <span className="muted small">
          Last saved {new Date(config.updated_at).toLocaleString()}
          {config.updated_by ? ` by ${config.updated_by}` : ''}
        </span>
      ) : null}
    </div>
  );
}
