import { MESSAGES } from '@spacecadet/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { ChannelIdField, ErrorAlert } from '../../ui/Field.tsx';
import { ChannelOptions } from '../ChannelField.tsx';
import { queryKeys } from '../queries.ts';
import { colorErrorText, isValidChannelId } from './color-roles-model.ts';

/** Panel Channel select with Save; a manual channel id when the bot lists no channels. */
export function ChannelPicker({
  guildId,
  savedChannelId,
  botInGuild,
}: {
  guildId: string;
  savedChannelId: string | null;
  botInGuild: boolean;
}) {
  const queryClient = useQueryClient();
  const channels = useQuery({
    queryKey: queryKeys.channels(guildId),
    queryFn: () => apiCall('listChannels', { params: { guildId } }),
    enabled: botInGuild,
  });
  const [choice, setChoice] = useState<string>(savedChannelId ?? '');
  // A reload that brings a saved channel (e.g. after Save) shows it.
  useEffect(() => {
    if (savedChannelId) setChoice(savedChannelId);
  }, [savedChannelId]);
  const [problem, setProblem] = useState<string | null>(null);
  const save = useMutation({
    mutationFn: (channelId: string) =>
      apiCall('setColorRolesChannel', { params: { guildId }, body: { channel_id: channelId } }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.colorRoles(guildId) }),
  });

  const list = channels.data?.channels ?? [];
  const manual = botInGuild && !channels.isPending && list.length === 0;
  const onSave = () => {
    if (manual && !isValidChannelId(choice)) {
      setProblem(MESSAGES.channelIdRequired);
      return;
    }
    setProblem(null);
    save.mutate(choice.trim());
  };

  return (
    <section className="card channel-card" aria-labelledby="channel-title">
      <h2 id="channel-title">Panel Channel</h2>
      <div className="channel-row">
        {manual ? (
          <ChannelIdField
            id="panel-channel-id"
            label="Channel ID"
            value={choice}
            aria-invalid={problem !== null}
            onChange={setChoice}
          />
        ) : (
          <div className="field">
            <label htmlFor="panel-channel">Channel</label>
            <select
              id="panel-channel"
              className="select"
              value={choice}
              disabled={!botInGuild || channels.isPending}
              onChange={(event) => setChoice(event.target.value)}
            >
              {!botInGuild ? <option value="">{MESSAGES.botNotInGuild}</option> : null}
              {botInGuild ? (
                <option value="">{channels.isPending ? 'Loading channels…' : 'Select a channel'}</option>
              ) : null}
              <ChannelOptions channels={list} />
            </select>
          </div>
        )}
        <button
          type="button"
          className="btn btn-primary"
          onClick={onSave}
          disabled={!botInGuild || choice.trim() === '' || save.isPending}
        >
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
      </div>
      {!botInGuild ? <p className="muted small">{MESSAGES.botNotInGuild}</p> : null}
      {channels.isError ? (
        <p className="muted small">Could not list channels ({colorErrorText(channels.error)}).</p>
      ) : null}
      {problem ? <ErrorAlert>{problem}</ErrorAlert> : null}
      {save.isError ? <ErrorAlert>{colorErrorText(save.error)}</ErrorAlert> : null}
      {save.isSuccess ? <output className="save-note">Channel saved</output> : null}
    </section>
  );
}
