import type { ColorGroup, ColorRolesMode } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { ChannelCard, useChannelChoice } from '../shared/ChannelPicker.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { GuildSelect } from '../shared/GuildSelect.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { queryKeys } from '../shared/queries.ts';
import { ColorActions } from './ColorActions.tsx';
import {
  BLACK_TIP,
  colorErrorText,
  type DraftColor,
  draftChanged,
  draftOf,
  draftPanelColors,
  PALETTE_SAVED,
  paletteBody,
} from './color-roles-model.ts';
import { PaletteEditor } from './PaletteEditor.tsx';
import { PaletteList } from './PaletteList.tsx';
import { PanelPreview } from './PanelPreview.tsx';

export default function ColorRoles() {
  return (
    <GuildPage title="Color Roles" className="color-roles-page" head={() => <GuildSelect />}>
      {(guildId) => <ColorRolesScreen guildId={guildId} />}
    </GuildPage>
  );
}

function ColorRolesScreen({ guildId }: { guildId: string }) {
  const state = useQuery({
    queryKey: queryKeys.colorRoles(guildId),
    queryFn: () => apiCall('getColorRoles', { params: { guildId } }),
  });
  const guard = usePageGuard(guildId, state, {
    loading: 'Loading color roles…',
    failure: colorErrorText,
    bot: true,
  });
  const [jobWarnings, setJobWarnings] = useState<string[]>([]);
  const onWarnings = useCallback(
    (warnings: string[]) =>
      setJobWarnings((current) =>
        current.length === warnings.length && current.every((warning, i) => warning === warnings[i])
          ? current
          : warnings,
      ),
    [],
  );

  if (!guard.ready) return guard.view;
  const { data, botInGuild, banner } = guard;
  const { groups, mode, channel_id: channelId } = data;
  const warnings = [...new Set([...(data.warnings ?? []), ...jobWarnings])];

  return (
    <>
      {banner}
      <JobWarnings warnings={warnings} />
      <ColorActions
        guildId={guildId}
        mode={mode}
        channelId={channelId}
        botInGuild={botInGuild}
        onWarnings={onWarnings}
      />
      <div className="color-grid">
        <PanelChannel guildId={guildId} savedChannelId={channelId} botInGuild={botInGuild} />
        <section className="card tips-card" aria-labelledby="tips-title">
          <h2 id="tips-title">Quick Tips</h2>
          <ul>
            <li>Generate Roles creates any missing color roles; running it again never duplicates them.</li>
            <li>
              Edit the palette, save it, then Generate Roles: a renamed or recolored color keeps its role and
              its members.
            </li>
            <li>Post / Update Panel edits the existing panel message when it still exists.</li>
            <li>Keep the Space Cadet role above the color roles so it can assign them.</li>
            <li>{BLACK_TIP}</li>
          </ul>
        </section>
      </div>
      <PaletteSection guildId={guildId} groups={groups} mode={mode} />
    </>
  );
}

/**
 * The palette editor and the panel preview beside it: the preview draws the draft, so every
 * edit shows at once; Save sends the whole palette and the answer becomes the page's state.
 */
function PaletteSection({
  guildId,
  groups,
  mode,
}: {
  guildId: string;
  groups: ColorGroup[];
  mode: ColorRolesMode;
}) {
  const queryClient = useQueryClient();
  // The stored palette by group shows until the admin opens the editor.
  const [editing, setEditing] = useState(false);
  // null: no edits, show what is stored (and follow it when a job changes it).
  const [edited, setEdited] = useState<DraftColor[] | null>(null);
  const draft = edited ?? draftOf(groups);
  const save = useMutation({
    mutationFn: (next: DraftColor[]) =>
      apiCall('putColorPalette', { params: { guildId }, body: paletteBody(next) }),
    onSuccess: (state) => {
      queryClient.setQueryData(queryKeys.colorRoles(guildId), state);
      setEdited(null);
      setEditing(false);
    },
  });
  const changed = edited !== null && draftChanged(edited, groups);
  // Until the palette changes again (a Generate Roles gives roles): then the note is done.
  const savedNow = save.isSuccess && JSON.stringify(save.data.groups) === JSON.stringify(groups);
  if (!editing) {
    return (
      <div className="color-grid">
        <PanelPreview colors={draftPanelColors(draft)} mode={mode} />
        <PaletteList
          groups={groups}
          mode={mode}
          savedNote={savedNow ? PALETTE_SAVED : null}
          onEdit={() => {
            save.reset();
            setEditing(true);
          }}
        />
      </div>
    );
  }
  return (
    <div className="color-grid">
      <PanelPreview colors={draftPanelColors(draft)} mode={mode} />
      <PaletteEditor
        draft={draft}
        mode={mode}
        changed={changed}
        saving={save.isPending}
        saved={savedNow}
        error={save.isError ? colorErrorText(save.error) : null}
        onChange={(next) => {
          setEdited(next);
          if (save.isSuccess) save.reset();
        }}
        onSave={() => save.mutate(draft)}
        onDiscard={() => {
          setEdited(null);
          save.reset();
          setEditing(false);
        }}
        onDismissError={() => save.reset()}
      />
    </div>
  );
}

/** Panel Channel: the shared channel card, saving to the color roles channel. */
function PanelChannel({
  guildId,
  savedChannelId,
  botInGuild,
}: {
  guildId: string;
  savedChannelId: string | null;
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useChannelChoice(savedChannelId);
  const save = useMutation({
    mutationFn: (channelId: string) =>
      apiCall('setColorRolesChannel', { params: { guildId }, body: { channel_id: channelId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.colorRoles(guildId) }),
  });
  return (
    <ChannelCard
      id="panel-channel"
      title="Panel Channel"
      guildId={guildId}
      botInGuild={botInGuild}
      value={choice}
      onChange={setChoice}
      onSave={(channelId) => save.mutate(channelId)}
      saving={save.isPending}
      saved={save.isSuccess}
      error={save.isError ? colorErrorText(save.error) : null}
      onDismissError={() => save.reset()}
      failureText={colorErrorText}
    />
  );
}
