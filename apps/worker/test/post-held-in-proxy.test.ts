import { colorPanels } from '@spacecadet/db/schema';
import { type DiscordProxy, startDiscordProxy } from '@spacecadet/discord-proxy';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningWorker, startWorker } from '../src/worker.ts';
import {
  type ChildWorker,
  control,
  guildState,
  type Harness,
  jobQueue,
  SANDBOX_IDS,
  STATION,
  startChildWorker,
  startHarness,
  waitFor,
} from './helpers.ts';

const panelChannel = SANDBOX_IDS.channels.roles;

describe('a color panel post held in the Discord proxy when its worker is killed', () => {
  let harness: Harness;
  let proxy: DiscordProxy;
  let child: ChildWorker | undefined;
  let survivor: RunningWorker | undefined;
  let jobs: ReturnType<typeof jobQueue>;

  beforeAll(async () => {
    harness = await startHarness();
    proxy = await startDiscordProxy({ upstream: harness.sandbox.apiBase, port: 0 });
    jobs = jobQueue(harness);
  });
  afterAll(async () => {
    await child?.stop();
    await survivor?.close();
    await jobs?.close();
    await proxy?.close();
    await harness?.close();
  });

  it('leaves one panel when the recovered job posts it again while the held post is still to come', async () => {
    const sandbox = control(harness.sandbox);
    const route = `/channels/${panelChannel}/messages`;
    const calls = (method: string, afterSeq = 0) =>
      harness.sandbox.world.requests.filter(
        (r) => r.path === route && r.method === method && r.seq > afterSeq,
      );
    await harness.database.db.insert(colorPanels).values({ guildId: STATION, channelId: panelChannel });
    child = await startChildWorker(harness, { DISCORD_PROXY_URL: proxy.url });
    const generated = await jobs.finished((await jobs.add('color-roles.generate')).id ?? '');
    expect(generated.state, generated.error).toBe('completed');

    // Discord holds the panel back (429, retry after 4 s, again and again): the post waits in
    // the proxy, which sends it on its own once Discord lets it, whatever became of its sender.
    await sandbox.fault({ method: 'POST', path: route, status: 429, count: 1_000, retry_after: 4 });
    const jobId = (await jobs.add('color-roles.post-panel')).id ?? '';
    await waitFor('the panel post to be held in the proxy', () => calls('POST').length > 0, 60_000);
    survivor = await startWorker(harness.config());
    const killedAt = harness.sandbox.world.requests.at(-1)?.seq ?? 0;
    await child.stop('SIGKILL');
    // The survivor recovers the job, looks for a panel the killed run posted, finds none (it
    // is still held) and posts one. Only then does Discord let the posts through.
    await waitFor('the recovered job to look for the panel', () => calls('GET', killedAt).length > 0, 60_000);
    await sandbox.clearFaults();
    const outcome = await jobs.finished(jobId, 60_000);
    expect(outcome.state, outcome.error).toBe('completed');
    await waitFor(
      'the held post and the recovered one to reach Discord',
      () => calls('POST').filter((r) => r.status === 200).length === 2,
      60_000,
    );
    const panels = guildState(harness.sandbox, STATION).channels.find((c) => c.id === panelChannel)?.messages;
    expect(panels?.map((m) => m.id)).toHaveLength(1);
    const [stored] = await harness.database.db.select().from(colorPanels);
    expect(stored?.messageId).toBe(panels?.[0]?.id);
  }, 300_000);
});
