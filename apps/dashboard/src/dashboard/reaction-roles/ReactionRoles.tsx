/** The Reaction Roles page: the editor of the two role lists, their channels and panels, and the raw JSON. */
import type { GuildRole, ReactionList, ReactionRolesState } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
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
  emptyRow,
  entriesFromRows,
  listsToJson,
  PANELS_WILL_UPDATE,
  panelLocationText,
  ROLE_LISTS,
  type RoleListName,
  type RowProblem,
} from './reaction-roles-form.ts';
import { useReactionRolesDraft } from './useReactionRolesDraft.ts';

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
  const [showJson, setShowJson] = useState(false);
  const draft = useReactionRolesDraft(guildId, saved);
  const { lists, jsonProblem, save, problems, updateList } = draft;
  const roleList = useGuildRoles(guildId, botInGuild);
  const roles = useMemo(
    () => new Map<string, GuildRole>((roleList.data?.roles ?? []).map((role) => [role.id, role])),
    [roleList.data],
  );
  const posted = saved.panels.color_roles !== null || saved.panels.personality_roles !== null;
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
        <button type="button" className="btn btn-primary" onClick={draft.onSave} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess ? <output className="save-note">Saved</output> : null}
        {save.isSuccess && posted ? <span className="muted small">{PANELS_WILL_UPDATE}</span> : null}
        {draft.blocked && jsonProblem ? (
          <p className="save-note save-note-error" role="alert">
            {jsonProblem}: fix the raw JSON to save
          </p>
        ) : null}
      </div>
      <ProblemList problems={problems} />
      <ErrorBox onDismiss={() => save.reset()}>{save.isError ? errorText(save.error) : null}</ErrorBox>
      <PanelActions guildId={guildId} saved={saved} botInGuild={botInGuild} dirty={draft.dirty} />
      <div className="role-lists">
        {ROLE_LISTS.map(({ name, title }) => (
          <RoleRowsEditor
            key={name}
            guildId={guildId}
            name={name}
            title={title}
            rows={lists[name]}
            invalidFields={invalidFieldsOf(name, draft.refused[name], problems)}
            emojiProblems={emojiProblemsOf(name, draft.live)}
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
        <RawJsonCard
          text={draft.jsonText ?? listsToJson(lists)}
          problem={jsonProblem}
          onChange={draft.onJsonChange}
        />
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

/** The problems Save found, each said once with its list's title. */
function ProblemList({ problems }: { problems: readonly RowProblem[] }) {
  if (problems.length === 0) return null;
  const titleOf = (list: RoleListName) => ROLE_LISTS.find((item) => item.name === list)?.title ?? list;
  return (
    <div className="alert alert-error" role="alert">
      <ul className="problem-list">
        {[...new Set(problems.map((problem) => `${titleOf(problem.list)}: ${problem.message}`))].map(
          (line) => (
            <li key={line}>{line}</li>
          ),
        )}
      </ul>
    </div>
  );
}

/** The raw JSON of both lists, edited in place; text that does not parse is said under it. */
function RawJsonCard({
  text,
  problem,
  onChange,
}: {
  text: string;
  problem: string | null;
  onChange: (text: string) => void;
}) {
  return (
    <div className="card">
      <label htmlFor="reaction-roles-json">Raw JSON</label>
      <textarea
        id="reaction-roles-json"
        className="textarea"
        rows={14}
        spellCheck={false}
        value={text}
        aria-invalid={problem !== null}
        onChange={(event) => onChange(event.target.value)}
      />
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
    </div>
  );
}

/** A list's fields marked invalid: those the API refused and those Save found wrong (`row:field`). */
function invalidFieldsOf(name: RoleListName, refused: ReadonlySet<string>, problems: readonly RowProblem[]) {
  return new Set([
    ...refused,
    ...problems
      .filter((problem) => problem.list === name && problem.field !== null)
      .map((problem) => `${problem.row}:${problem.field}`),
  ]);
}

/** A list's live emoji problems by 1-based row (the draft keys them `list:row`). */
function emojiProblemsOf(name: RoleListName, live: ReadonlyMap<string, string>) {
  return new Map(
    [...live]
      .filter(([key]) => key.startsWith(`${name}:`))
      .map(([key, message]) => [Number(key.slice(name.length + 1)), message]),
  );
}
