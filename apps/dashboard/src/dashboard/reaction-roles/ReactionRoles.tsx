import type { GuildRole, ReactionList, ReactionRolesState } from '@spacecadet/contract';
import { MESSAGES } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { ChannelCard, useChannelChoice } from '../shared/ChannelPicker.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { queryKeys, useChannels } from '../shared/queries.ts';
import { PanelActions } from './PanelActions.tsx';
import { ReactionPanelPreview } from './ReactionPanelPreview.tsx';
import { RoleRowsEditor } from './RoleRowsEditor.tsx';
import {
  emojiProblems,
  emptyRow,
  entriesFromRows,
  listsFromJson,
  listsToJson,
  PANELS_WILL_UPDATE,
  panelLocationText,
  ROLE_LISTS,
  type RoleListName,
  type RoleRow,
  type RowProblem,
  refusedFields,
  rowsFromEntries,
  validateReactionRoles,
} from './reaction-roles-form.ts';

export default function ReactionRoles() {
  return (
    <GuildPage
      title="Reaction Roles"
      className="reaction-roles-page"
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
  const guard = usePageGuard(guildId, state, { loading: 'Loading reaction roles…', bot: true });
  if (!guard.ready) return guard.view;
  // Mounted once per server (GuildPage): a save refetches the state, and the editor keeps its
  // own (the Saved note, the open JSON view) rather than starting over; channels and panel
  // locations follow the refetched state.
  return (
    <>
      {guard.banner}
      <ReactionRolesForm guildId={guildId} saved={guard.data} botInGuild={guard.botInGuild} />
    </>
  );
}

function ReactionRolesForm({
  guildId,
  saved,
  botInGuild,
}: {
  guildId: string;
  saved: ReactionRolesState;
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const [lists, setLists] = useState<Record<RoleListName, RoleRow[]>>(() => ({
    color_roles: rowsFromEntries(saved.color_roles),
    personality_roles: rowsFromEntries(saved.personality_roles),
  }));
  const [showJson, setShowJson] = useState(false);
  const [jsonText, setJsonText] = useState<string | null>(null);
  /** Save was pressed: from then on the problems list follows the edits. */
  const [checked, setChecked] = useState(false);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  /** Save was pressed while the raw JSON did not parse. */
  const [blocked, setBlocked] = useState(false);
  const roleList = useGuildRoles(guildId, botInGuild);
  const roles = useMemo(
    () => new Map<string, GuildRole>((roleList.data?.roles ?? []).map((role) => [role.id, role])),
    [roleList.data],
  );
  // Checked as the admin types, with the API's own words: typed emojis at once, the rest
  // once Save was pressed.
  const found = useMemo(() => validateReactionRoles(lists), [lists]);
  const live = useMemo(() => emojiProblems(found, lists), [found, lists]);
  const problems: readonly RowProblem[] = checked ? found : [];
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
  const refused = refusedFields(save.isError && isApiError(save.error) ? save.error.issues : []);
  const posted = saved.panels.color_roles !== null || saved.panels.personality_roles !== null;
  const dirty =
    JSON.stringify(entriesFromRows(lists.color_roles)) !== JSON.stringify(saved.color_roles) ||
    JSON.stringify(entriesFromRows(lists.personality_roles)) !== JSON.stringify(saved.personality_roles);

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
    setChecked(true);
    if (found.length === 0) save.mutate();
  };
  const titleOf = (list: RoleListName) => ROLE_LISTS.find((item) => item.name === list)?.title ?? list;

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
        {save.isSuccess && posted ? <span className="muted small">{PANELS_WILL_UPDATE}</span> : null}
        {blocked && jsonProblem ? (
          <p className="save-note save-note-error" role="alert">
            {jsonProblem}: fix the raw JSON to save
          </p>
        ) : null}
      </div>
      {problems.length > 0 ? (
        <div className="alert alert-error" role="alert">
          <ul className="problem-list">
            {[...new Set(problems.map((problem) => `${titleOf(problem.list)}: ${problem.message}`))].map(
              (line) => (
                <li key={line}>{line}</li>
              ),
            )}
          </ul>
        </div>
      ) : null}
      <ErrorBox onDismiss={() => save.reset()}>{save.isError ? errorText(save.error) : null}</ErrorBox>
      <PanelActions guildId={guildId} saved={saved} botInGuild={botInGuild} dirty={dirty} />
      <div className="role-lists">
        {ROLE_LISTS.map(({ name, title }) => (
          <RoleRowsEditor
            key={name}
            guildId={guildId}
            name={name}
            title={title}
            rows={lists[name]}
            invalidFields={
              new Set([
                ...refused[name],
                ...problems
                  .filter((problem) => problem.list === name && problem.field !== null)
                  .map((problem) => `${problem.row}:${problem.field}`),
              ])
            }
            emojiProblems={
              new Map(
                [...live]
                  .filter(([key]) => key.startsWith(`${name}:`))
                  .map(([key, message]) => [Number(key.slice(name.length + 1)), message]),
              )
            }
            roles={roles}
            onChange={(rows) => updateList(name, rows)}
            onAdd={() => updateList(name, [...lists[name], emptyRow()])}
            channel={
              <ListChannel
                guildId={guildId}
                list={name}
                title={title}
                saved={saved}
                botInGuild={botInGuild}
              />
            }
            preview={
              <ReactionPanelPreview
                list={name}
                title={title}
                options={entriesFromRows(lists[name])}
                roles={roles}
              />
            }
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

/** A list's Panel Channel (saved on its own) and where its panel is posted now. */
function ListChannel({
  guildId,
  list,
  title,
  saved,
  botInGuild,
}: {
  guildId: string;
  list: ReactionList;
  title: string;
  saved: ReactionRolesState;
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const savedChannelId = saved.channels[list];
  const [choice, setChoice] = useChannelChoice(savedChannelId);
  const channels = useChannels(guildId, botInGuild);
  const save = useMutation({
    mutationFn: (channelId: string) =>
      apiCall('setReactionListChannel', { params: { guildId }, body: { list, channel_id: channelId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reactionRoles(guildId) }),
  });
  return (
    <ChannelCard
      id={`${list}-channel`}
      title="Panel Channel"
      nested
      saveLabel={`Save the ${title} channel`}
      guildId={guildId}
      botInGuild={botInGuild}
      value={choice}
      onChange={(value) => {
        setChoice(value);
        save.reset();
      }}
      onSave={(channelId) => save.mutate(channelId)}
      saving={save.isPending}
      saved={save.isSuccess}
      error={save.isError ? errorText(save.error) : null}
      onDismissError={() => save.reset()}
    >
      <p className="muted small panel-location">
        {panelLocationText(saved.panels[list], savedChannelId, channels.data?.channels ?? [])}
      </p>
    </ChannelCard>
  );
}
