import type { ReactionRolesState } from '@spacecadet/contract';
import { MESSAGES } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { queryKeys } from '../shared/queries.ts';
import { RoleRowsEditor } from './RoleRowsEditor.tsx';
import {
  emptyRow,
  entriesFromRows,
  listsFromJson,
  listsToJson,
  ROLE_LISTS,
  type RoleListName,
  type RoleRow,
  type RowProblem,
  rowsFromEntries,
  validateReactionRoles,
} from './reaction-roles-form.ts';

export default function ReactionRoles() {
  return (
    <GuildPage
      title="Reaction Roles"
      head={() => <GuildSelect />}
      noGuild={<p className="muted">Pick a server to edit its reaction roles.</p>}
    >
      {(guildId) => <ReactionRolesScreen guildId={guildId} />}
    </GuildPage>
  );
}

function ReactionRolesScreen({ guildId }: { guildId: string }) {
  const state = useQuery({
    queryKey: queryKeys.reactionRoles(guildId),
    queryFn: () => apiCall('getReactionRoles', { params: { guildId } }),
  });
  const guard = usePageGuard(guildId, state);
  if (!guard.ready) return guard.view;
  // Mounted once per server (GuildPage): a save refetches the state, and the editor keeps its
  // own (the Saved note, the open JSON view) rather than starting over.
  return (
    <>
      {guard.banner}
      <ReactionRolesForm guildId={guildId} initial={guard.data} />
    </>
  );
}

function ReactionRolesForm({ guildId, initial }: { guildId: string; initial: ReactionRolesState }) {
  const queryClient = useQueryClient();
  const [lists, setLists] = useState<Record<RoleListName, RoleRow[]>>(() => ({
    color_roles: rowsFromEntries(initial.color_roles),
    personality_roles: rowsFromEntries(initial.personality_roles),
  }));
  const [showJson, setShowJson] = useState(false);
  const [jsonText, setJsonText] = useState<string | null>(null);
  const [problems, setProblems] = useState<RowProblem[]>([]);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  /** Save was pressed while the raw JSON did not parse. */
  const [blocked, setBlocked] = useState(false);
  const save = useMutation({
    mutationFn: () =>
      apiCall('putReactionRoles', {
        params: { guildId },
        body: {
          color_roles: entriesFromRows(lists.color_roles),
          personality_roles: entriesFromRows(lists.personality_roles),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reactionRoles(guildId) }),
  });

  const updateList = (name: RoleListName, rows: RoleRow[]) => {
    setLists((current) => ({ ...current, [name]: rows }));
    setJsonText(null);
    setJsonProblem(null);
    setBlocked(false);
    save.reset();
  };
  const onJsonChange = (text: string) => {
    setJsonText(text);
    save.reset();
    const parsed = listsFromJson(text);
    if (parsed) {
      setLists(parsed);
      setJsonProblem(null);
      setBlocked(false);
    } else {
      setJsonProblem(MESSAGES.invalidJson);
    }
  };
  const onSave = () => {
    if (jsonProblem) {
      setBlocked(true);
      return;
    }
    const found = validateReactionRoles(lists);
    setProblems(found);
    if (found.length === 0) save.mutate();
  };

  return (
    <>
      <div className="button-row">
        <button
          type="button"
          className="btn btn-secondary"
          aria-expanded={showJson}
          onClick={() => setShowJson(!showJson)}
        >
          {showJson ? 'Hide JSON' : 'Show JSON'}
        </button>
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess ? <output className="save-note">Saved</output> : null}
        {blocked && jsonProblem ? (
          <p className="save-note save-note-error" role="alert">
            {jsonProblem}: fix the raw JSON to save
          </p>
        ) : null}
      </div>
      {problems.length > 0 ? (
        <div className="alert alert-error" role="alert">
          <ul className="problem-list">
            {problems.map((problem) => (
              <li key={`${problem.list}:${problem.message}`}>
                {ROLE_LISTS.find((list) => list.name === problem.list)?.title}: {problem.message}
              </li>
            ))}
          </ul>
        </div>
      ) : null}
      <ErrorBox onDismiss={() => save.reset()}>{save.isError ? errorText(save.error) : null}</ErrorBox>
      <div className="role-lists">
        {ROLE_LISTS.map(({ name, title }) => (
          <RoleRowsEditor
            key={name}
            guildId={guildId}
            name={name}
            title={title}
            rows={lists[name]}
            invalidRows={new Set(problems.filter((problem) => problem.list === name).map((p) => p.row))}
            onChange={(rows) => updateList(name, rows)}
            onAdd={() => updateList(name, [...lists[name], emptyRow()])}
          />
        ))}
      </div>
      {showJson ? (
        <div className="card">
          <label htmlFor="reaction-roles-json">Raw JSON</label>
          <textarea
            id="reaction-roles-json"
            className="textarea"
            rows={14}
            spellCheck={false}
            value={jsonText ?? listsToJson(lists)}
            aria-invalid={jsonProblem !== null}
            onChange={(event) => onJsonChange(event.target.value)}
          />
          {jsonProblem ? <ErrorAlert>{jsonProblem}</ErrorAlert> : null}
        </div>
      ) : null}
    </>
  );
}
