import { type GuildChangeWatch, watchGuildChanges } from '@spacecadet/db/guild-change-watch';
import type { WorkerDeps } from './deps.ts';
import { errorFields } from './logger.ts';

/**
 * A per-process copy of each guild's setup for a feature, for reads too frequent for Postgres
 * (the personality refresh every 5 minutes, leveling on every chat message). Postgres announces
 * every change of a guild's setup with NOTIFY on the feature's channel (triggers, migrations
 * 0004 and 0006); the copy of that guild is dropped when it is heard, so the next read sees the
 * change.
 *
 * While the listening connection is down (Postgres restarting, a network cut) a change could go
 * unheard, yet the last known setup is still the best one there is: copies are kept and served
 * through the outage (chat keeps earning XP on the setup it had), but no longer trusted. Once
 * listening again, an untrusted copy is still answered at once and read again behind it, so
 * the first read after recovery never waits for Postgres and a change made during the outage
 * applies from the read after. Bounded: past `max` guilds the least recently used goes.
 */
export interface GuildSetupCacheOptions<T> {
  /** Names the cache in logs. */
  name: string;
  /** The NOTIFY channel the feature's triggers announce on (or several). */
  channel: string | readonly string[];
  max: number;
  load(deps: WorkerDeps, guildId: string): Promise<T>;
  /**
   * Reads many guilds' setups at once (one query per table for all of them): every guild asked
   * for gets an entry. When given, reads that miss are gathered and read together (see
   * `BATCH_MAX`), so thousands of guilds going cold at once cost a few queries, not a pool queue
   * thousands deep.
   */
  loadMany?(deps: WorkerDeps, guildIds: readonly string[]): Promise<ReadonlyMap<string, T>>;
  /** Whether a setup just read may be kept; all are when absent. */
  keep?(setup: T): boolean;
  /** Runs for each change heard, after the guild's copy was dropped. */
  changed?(deps: WorkerDeps, guildId: string): void;
}

export interface GuildSetupCache<T> {
  /**
   * The guild's setup; `fresh` reads Postgres (a run asked for right after a change). Rejects
   * only when there is no copy at all and Postgres cannot be read.
   */
  get(deps: WorkerDeps, guildId: string, options?: { fresh?: boolean }): Promise<T>;
  /**
   * The copy `get` would answer at once, without a promise (a chat message's hot path); undefined
   * when there is none and Postgres has to be read (then `get`).
   */
  peek(deps: WorkerDeps, guildId: string): T | undefined;
  /** Starts listening now (a process hears changes before its first read, e.g. to act on them). */
  listen(deps: WorkerDeps): void;
  /** For the feature's shutdown hook: the listening connection goes before Postgres closes. */
  close(deps: WorkerDeps): Promise<void>;
  /**
   * How many changes of the guild this process has heard announced: the fewest over its
   * listening connections (one per running worker), Infinity with none (no copy to go stale).
   * Postgres delivers announcements in commit order, so once one written after a change is
   * heard, so is the change: a test announces a made-up guild and waits for it here instead of
   * sleeping.
   */
  heard(guildId: string): number;
  /** Reads of Postgres so far, over every process's copy: calls of load or loadMany, and guilds read. */
  readonly reads: { queries: number; guilds: number };
}

/** Guilds read in one `loadMany` call at most. */
const BATCH_MAX = 500;
/**
 * `loadMany` calls under way at once per process: reads that miss meanwhile wait and go
 * together in the next, so the busier Postgres is the larger (and fewer) the reads.
 */
const BATCHES_IN_FLIGHT = 2;
/**
 * How long a miss waits for others to share its read: a burst of chat over cold guilds arrives
 * over many event-loop turns. A first message is priced this much later, which nobody sees.
 */
const BATCH_WINDOW_MS = 10;

interface Waiting<T> {
  guildId: string;
  resolve(setup: T): void;
  reject(error: unknown): void;
}

interface Kept<T> {
  setup: T;
  /** The connection epoch the copy was read in; trusted only when it is the current one. */
  epoch: number;
}

interface CacheState<T> {
  watch: GuildChangeWatch;
  setups: Map<string, Kept<T>>;
  /** Reads under way, shared by concurrent callers (a burst of messages in a cold guild). */
  loading: Map<string, { stamp: string; setup: Promise<T> }>;
  /** Per guild, bumped on each change heard; `epoch` on each lost connection and reconnect. */
  changes: Map<string, number>;
  epoch: number;
  /** Guilds to read with the next `loadMany` call, and how many calls are under way. */
  waiting: Waiting<T>[];
  batching: number;
  batchScheduled: boolean;
}

/** A cache's options and its count of reads, as the batching functions use them. */
interface CacheOf<T> {
  options: GuildSetupCacheOptions<T>;
  reads: { queries: number; guilds: number };
}

/** What a read's copy is stamped with: the connection epoch and the guild's changes heard. */
function stampOf<T>(state: CacheState<T>, guildId: string): string {
  return `${state.epoch}:${state.changes.get(guildId) ?? 0}`;
}

/** A process's copy of a cache, listening for the feature's changes on its own connection. */
function newCacheState<T>(deps: WorkerDeps, options: GuildSetupCacheOptions<T>): CacheState<T> {
  const created: CacheState<T> = {
    setups: new Map(),
    loading: new Map(),
    changes: new Map(),
    epoch: 0,
    waiting: [],
    batching: 0,
    batchScheduled: false,
    watch: watchGuildChanges(deps.config.databaseUrl, options.channel, {
      changed(guildId) {
        created.setups.delete(guildId);
        created.loading.delete(guildId);
        created.changes.set(guildId, (created.changes.get(guildId) ?? 0) + 1);
        options.changed?.(deps, guildId);
      },
      lost() {
        // Copies stay (served, not trusted); a read under way must not be trusted either.
        created.epoch += 1;
        deps.logger.warn(
          { cache: options.name },
          'setup watch lost its connection; serving the last known setups until it is back',
        );
      },
      restored() {
        // Changes made while down were not heard: every copy is read again as it is used.
        created.epoch += 1;
        deps.logger.info({ cache: options.name }, 'setup watch listening again; re-reading setups as used');
      },
    }),
  };
  return created;
}

/** Reads one guild's setup from Postgres, with others' when the feature can read many at once. */
function fetchSetup<T>(
  cache: CacheOf<T>,
  deps: WorkerDeps,
  state: CacheState<T>,
  guildId: string,
): Promise<T> {
  const { options, reads } = cache;
  if (!options.loadMany) {
    reads.queries += 1;
    reads.guilds += 1;
    return options.load(deps, guildId);
  }
  return new Promise<T>((resolve, reject) => {
    state.waiting.push({ guildId, resolve, reject });
    scheduleBatch(cache, deps, state);
  });
}

/** Reads the waiting guilds in batches, a few at once, each gathering the misses of its window. */
function scheduleBatch<T>(cache: CacheOf<T>, deps: WorkerDeps, state: CacheState<T>): void {
  if (state.batchScheduled || state.batching >= BATCHES_IN_FLIGHT || state.waiting.length === 0) return;
  state.batchScheduled = true;
  // The misses of the next few milliseconds (a burst of gateway events) go in one read.
  setTimeout(() => {
    state.batchScheduled = false;
    if (state.batching >= BATCHES_IN_FLIGHT) return;
    const batch = state.waiting.splice(0, BATCH_MAX);
    if (batch.length === 0) return;
    state.batching += 1;
    runBatch(cache, deps, batch).finally(() => {
      state.batching -= 1;
      scheduleBatch(cache, deps, state);
    });
    scheduleBatch(cache, deps, state);
  }, BATCH_WINDOW_MS);
}

/** One `loadMany` call: each guild's waiting read gets its setup, or the reason it has none. */
async function runBatch<T>(cache: CacheOf<T>, deps: WorkerDeps, batch: readonly Waiting<T>[]): Promise<void> {
  const { options, reads } = cache;
  const loadMany = options.loadMany;
  if (!loadMany) return;
  const guildIds = [...new Set(batch.map((one) => one.guildId))];
  reads.queries += 1;
  reads.guilds += guildIds.length;
  try {
    const setups = await loadMany(deps, guildIds);
    for (const one of batch) {
      const setup = setups.get(one.guildId);
      if (setup === undefined)
        one.reject(new Error(`${options.name} setup of guild ${one.guildId} not read`));
      else one.resolve(setup);
    }
  } catch (error) {
    for (const one of batch) one.reject(error);
  }
}

export function guildSetupCache<T>(options: GuildSetupCacheOptions<T>): GuildSetupCache<T> {
  const states = new WeakMap<WorkerDeps['db'], CacheState<T>>();
  /** The same states, for `heard`. */
  const open = new Set<CacheState<T>>();
  const reads = { queries: 0, guilds: 0 };
  const cache: CacheOf<T> = { options, reads };

  function stateOf(deps: WorkerDeps): CacheState<T> {
    const state = states.get(deps.db);
    if (state) return state;
    const created = newCacheState(deps, options);
    states.set(deps.db, created);
    open.add(created);
    return created;
  }

  async function read(deps: WorkerDeps, state: CacheState<T>, guildId: string): Promise<T> {
    const stamp = stampOf(state, guildId);
    const changes = state.changes.get(guildId) ?? 0;
    const live = state.watch.live;
    const setup = await fetchSetup(cache, deps, state, guildId);
    // Not kept when a change was heard while reading: the copy may predate it.
    if (!(options.keep?.(setup) ?? true) || (state.changes.get(guildId) ?? 0) !== changes) return setup;
    // Trusted only when listening held from before the read to after it; otherwise it is
    // still the best known setup, served and read again once listening.
    const trusted = live && state.watch.live && stamp === stampOf(state, guildId);
    state.setups.delete(guildId);
    state.setups.set(guildId, { setup, epoch: trusted ? state.epoch : -1 });
    if (state.setups.size > options.max) {
      const oldest = state.setups.keys().next();
      if (!oldest.done) state.setups.delete(oldest.value);
    }
    return setup;
  }

  function load(deps: WorkerDeps, state: CacheState<T>, guildId: string): Promise<T> {
    const stamp = stampOf(state, guildId);
    const pending = state.loading.get(guildId);
    if (pending && pending.stamp === stamp) return pending.setup;
    const setup = read(deps, state, guildId).finally(() => {
      if (state.loading.get(guildId)?.setup === setup) state.loading.delete(guildId);
    });
    state.loading.set(guildId, { stamp, setup });
    return setup;
  }

  /** The guild's kept copy, as `get` answers it (then most recently used), if there is one. */
  function keptCopy(deps: WorkerDeps, state: CacheState<T>, guildId: string): Kept<T> | undefined {
    const kept = state.setups.get(guildId);
    if (kept === undefined) return undefined;
    // Most recently used goes last, so the oldest is first to go.
    state.setups.delete(guildId);
    state.setups.set(guildId, kept);
    if (state.watch.live && kept.epoch !== state.epoch) {
      // Listening again after an outage: answer with the copy, read it again behind it.
      load(deps, state, guildId).catch((error: unknown) =>
        deps.logger.debug({ ...errorFields(error), guildId, cache: options.name }, 'setup re-read failed'),
      );
    }
    return kept;
  }

  return {
    get(deps, guildId, { fresh = false } = {}) {
      const state = stateOf(deps);
      if (fresh) return read(deps, state, guildId);
      const kept = keptCopy(deps, state, guildId);
      return kept === undefined ? load(deps, state, guildId) : Promise.resolve(kept.setup);
    },
    peek(deps, guildId) {
      return keptCopy(deps, stateOf(deps), guildId)?.setup;
    },
    listen(deps) {
      stateOf(deps);
    },
    async close(deps) {
      const state = states.get(deps.db);
      states.delete(deps.db);
      if (state) open.delete(state);
      await state?.watch.close();
    },
    heard(guildId) {
      let fewest = Number.POSITIVE_INFINITY;
      for (const state of open) fewest = Math.min(fewest, state.changes.get(guildId) ?? 0);
      return fewest;
    },
    reads,
  };
}
