import pg from 'pg';

/**
 * Postgres announces changes of a guild's setup with NOTIFY (triggers on the feature's tables,
 * migrations 0004 and 0006), the guild id as payload. A process keeping a copy of setups in
 * memory listens here and drops a guild's copy when it hears of a change, so every write path
 * counts, including ones made by hand.
 */
export interface GuildChangeWatch {
  /** True while listening: changes are heard; false while (re)connecting. */
  readonly live: boolean;
  close(): Promise<void>;
}

export interface GuildChangeHandlers {
  changed(guildId: string): void;
  /** The connection dropped: changes made until it is back are not heard. */
  lost(): void;
  /** Listening again after `lost()`: changes made while it was down were not heard. */
  restored?(): void;
}

const RECONNECT_MS = 1_000;

/**
 * Listens on its own connection on `channel` (or on each of several): `changed(guild)` for each
 * change, `lost()` once when the connection drops, `restored()` once it listens again; it
 * retries every second.
 */
export function watchGuildChanges(
  databaseUrl: string,
  channel: string | readonly string[],
  handlers: GuildChangeHandlers,
): GuildChangeWatch {
  const channels: readonly string[] = typeof channel === 'string' ? [channel] : channel;
  for (const name of channels) if (!/^[a-z_]+$/.test(name)) throw new Error(`not a channel name: ${name}`);
  let client: pg.Client | null = null;
  let live = false;
  let closed = false;
  let down = false;
  let retry: NodeJS.Timeout | undefined;
  const drop = (failed: pg.Client) => {
    if (client !== failed) return;
    client = null;
    live = false;
    if (!down) {
      down = true;
      handlers.lost();
    }
    failed.end().catch(() => {});
    if (!closed) retry = setTimeout(connect, RECONNECT_MS).unref();
  };
  const connect = () => {
    const next = new pg.Client({ connectionString: databaseUrl, application_name: 'spacecadet-setup-watch' });
    client = next;
    next.on('notification', (message) => {
      if (channels.includes(message.channel) && message.payload) handlers.changed(message.payload);
    });
    next.on('error', () => drop(next));
    next.on('end', () => drop(next));
    next
      .connect()
      .then(() => next.query(channels.map((name) => `LISTEN ${name};`).join(' ')))
      .then(() => {
        if (client !== next || closed) return;
        live = true;
        if (down) {
          down = false;
          handlers.restored?.();
        }
      })
      .catch(() => drop(next));
  };
  connect();
  return {
    get live() {
      return live;
    },
    async close() {
      closed = true;
      clearTimeout(retry);
      live = false;
      const last = client;
      client = null;
      await last?.end().catch(() => {});
    },
  };
}
