import { MESSAGES } from '@spacecadet/contract';
import { useQuery } from '@tanstack/react-query';
import { apiCall } from '../lib/api.ts';
import { ChannelIdField } from '../ui/Field.tsx';
import { queryKeys } from './queries.ts';

/** The `#name` options of a channel select. */
export function ChannelOptions({ channels }: { channels: ReadonlyArray<{ id: string; name: string }> }) {
  return channels.map((channel) => (
    <option key={channel.id} value={channel.id}>
      #{channel.name}
    </option>
  ));
}

/**
 * A channel select (or a manual channel id input when the bot lists no channels). Disabled with
 * Bot not in guild when the bot is absent.
 */
export function ChannelField({
  id,
  label,
  guildId,
  botInGuild,
  value,
  onChange,
  emptyLabel = 'Select a channel',
}: {
  emptyLabel?: string;
  id: string;
  label: string;
  guildId: string;
  botInGuild: boolean;
  value: string;
  onChange: (value: string) => void;
}) {
  const channels = useQuery({
    queryKey: queryKeys.channels(guildId),
    queryFn: () => apiCall('listChannels', { params: { guildId } }),
    enabled: botInGuild,
  });
  const list = channels.data?.channels ?? [];
  if (botInGuild && !channels.isPending && list.length === 0) {
    return <ChannelIdField id={id} label={`${label} ID`} value={value} onChange={onChange} />;
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        disabled={!botInGuild || channels.isPending}
        onChange={(event) => onChange(event.target.value)}
      >
        <option value="">
          {!botInGuild ? MESSAGES.botNotInGuild : channels.isPending ? 'Loading channels…' : emptyLabel}
        </option>
        <ChannelOptions channels={list} />
      </select>
    </div>
  );
}
