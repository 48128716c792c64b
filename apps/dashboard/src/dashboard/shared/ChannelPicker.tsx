import { isSnowflake, MESSAGES } from '@spacecadet/contract';
import { type ReactNode, useEffect, useState } from 'react';
import { errorText } from '../../lib/api-error.ts';
import { ChannelIdField, ErrorAlert } from '../../ui/Field.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import { useChannels } from './queries.ts';

/** A channel id typed by hand (5 to 20 digits, `isSnowflake`). */
export function isValidChannelId(value: string): boolean {
  return isSnowflake(value.trim());
}

/** The `#name` options of a channel select. */
export function ChannelOptions({ channels }: { channels: ReadonlyArray<{ id: string; name: string }> }) {
  return channels.map((channel) => (
    <option key={channel.id} value={channel.id}>
      #{channel.name}
    </option>
  ));
}

/** Whether the picker asks for a typed id: the bot is there but listed no channels. */
function useManualChannel(guildId: string, botInGuild: boolean) {
  const channels = useChannels(guildId, botInGuild);
  const list = channels.data?.channels ?? [];
  return { channels, list, manual: botInGuild && !channels.isPending && list.length === 0 };
}

/**
 * The channel picker of every dashboard page: a select of the server's channels, or a manual
 * channel id input when the bot lists none. Disabled with Bot not in guild when the bot is absent.
 */
export function ChannelPicker({
  id,
  label,
  guildId,
  botInGuild,
  value,
  onChange,
  emptyLabel = 'Select a channel',
  invalid = false,
}: {
  id: string;
  label: string;
  guildId: string;
  botInGuild: boolean;
  value: string;
  onChange: (value: string) => void;
  emptyLabel?: string;
  invalid?: boolean;
}) {
  const { channels, list, manual } = useManualChannel(guildId, botInGuild);
  if (manual) {
    return (
      <ChannelIdField
        id={id}
        label={`${label} ID`}
        value={value}
        aria-invalid={invalid}
        onChange={onChange}
      />
    );
  }
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        className="select"
        value={value}
        aria-invalid={invalid}
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

/** The picked channel: starts at the saved one and follows it when a reload brings another. */
export function useChannelChoice(savedChannelId: string | null) {
  const [choice, setChoice] = useState(savedChannelId ?? '');
  useEffect(() => {
    if (savedChannelId) setChoice(savedChannelId);
  }, [savedChannelId]);
  return [choice, setChoice] as const;
}

/**
 * A card with one channel picker and its Save button (color roles' Panel Channel, personality
 * roles' Assignment Channel). A typed id is checked before `onSave` gets it. `nested` draws it
 * inside another card (a reaction list's Panel Channel): no card of its own, an h3 title;
 * `children` follow the Save row (where the panel is posted).
 */
export function ChannelCard({
  id,
  title,
  guildId,
  botInGuild,
  value,
  onChange,
  onSave,
  saving,
  saved,
  error,
  onDismissError,
  failureText = errorText,
  nested = false,
  saveLabel,
  children,
}: {
  id: string;
  title: string;
  guildId: string;
  botInGuild: boolean;
  value: string;
  onChange: (value: string) => void;
  onSave: (channelId: string) => void;
  saving: boolean;
  saved: boolean;
  /** A failed save, when the card shows it itself (else the page's error box does). */
  error?: ReactNode;
  onDismissError?: () => void;
  failureText?: (error: unknown) => string;
  nested?: boolean;
  /** The Save button's accessible name, where a page has more than one Save. */
  saveLabel?: string;
  children?: ReactNode;
}) {
  const { channels, manual } = useManualChannel(guildId, botInGuild);
  const [problem, setProblem] = useState<string | null>(null);
  const save = () => {
    if (manual && !isValidChannelId(value)) {
      setProblem(MESSAGES.channelIdRequired);
      return;
    }
    setProblem(null);
    onSave(value.trim());
  };

  return (
    <section
      className={nested ? 'channel-card nested-channel' : 'card channel-card'}
      aria-labelledby={`${id}-title`}
    >
      {nested ? <h3 id={`${id}-title`}>{title}</h3> : <h2 id={`${id}-title`}>{title}</h2>}
      <div className="channel-row">
        <ChannelPicker
          id={id}
          label="Channel"
          guildId={guildId}
          botInGuild={botInGuild}
          value={value}
          invalid={problem !== null}
          onChange={onChange}
        />
        <button
          type="button"
          className="btn btn-primary"
          onClick={save}
          aria-label={saveLabel}
          disabled={!botInGuild || value.trim() === '' || saving}
        >
          {saving ? 'Saving…' : 'Save'}
        </button>
      </div>
      {channels.isError ? (
        <p className="muted small">Could not list channels ({failureText(channels.error)}).</p>
      ) : null}
      <ErrorAlert>{problem}</ErrorAlert>
      <ErrorBox {...(onDismissError ? { onDismiss: onDismissError } : {})}>{error}</ErrorBox>
      {saved ? <output className="save-note">Channel saved</output> : null}
      {children}
    </section>
  );
}
