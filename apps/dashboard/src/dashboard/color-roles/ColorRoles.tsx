import { useQuery } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { ErrorAlert } from '../../ui/Field.tsx';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { GuildPage } from '../GuildPage.tsx';
import { GuildSelect } from '../GuildSelect.tsx';
import { queryKeys, useBotInGuild } from '../queries.ts';
import { ChannelPicker } from './ChannelPicker.tsx';
import { ColorActions } from './ColorActions.tsx';
import { BLACK_TIP, colorErrorText, panelColorsOf } from './color-roles-model.ts';
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
  const inGuild = useBotInGuild(guildId);
  const [jobWarnings, setJobWarnings] = useState<string[]>([]);
  const onWarnings = useCallback(
    (warnings: string[]) =>
      setJobWarnings((current) => (current.join('\n') === warnings.join('\n') ? current : warnings)),
    [],
  );

  if (state.isPending || inGuild.isPending) return <PageLoading label="Loading color roles…" />;
  if (state.isError) {
    return <ErrorAlert>{colorErrorText(state.error)}</ErrorAlert>;
  }
  const { groups, mode, channel_id: channelId } = state.data;
  const botInGuild = inGuild.data === true;
  const warnings = [...new Set([...(state.data.warnings ?? []), ...jobWarnings])];

  return (
    <>
      {warnings.length > 0 ? (
        <div className="alert alert-warning role-warning" role="alert">
          <div>
            <strong>Space Cadet needs your attention</strong>
            <ul>
              {warnings.map((warning) => (
                <li key={warning}>{warning}</li>
              ))}
            </ul>
          </div>
        </div>
      ) : null}
      <ColorActions
        guildId={guildId}
        mode={mode}
        channelId={channelId}
        botInGuild={botInGuild}
        onWarnings={onWarnings}
      />
      <div className="color-grid">
        <ChannelPicker guildId={guildId} savedChannelId={channelId} botInGuild={botInGuild} />
        <section className="card tips-card" aria-labelledby="tips-title">
          <h2 id="tips-title">Quick Tips</h2>
          <ul>
            <li>Generate Roles creates any missing color roles; running it again never duplicates them.</li>
            <li>Post / Update Panel edits the existing panel message when it still exists.</li>
            <li>Keep the Space Cadet role above the color roles so it can assign them.</li>
            <li>{BLACK_TIP}</li>
          </ul>
        </section>
      </div>
      <div className="color-grid">
        <PanelPreview colors={panelColorsOf(groups)} mode={mode} />
        <PaletteList groups={groups} mode={mode} />
      </div>
    </>
  );
}
