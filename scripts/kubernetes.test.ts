/**
 * The Kubernetes manifests (deploy/kubernetes, README "Kubernetes"). No cluster runs on the
 * build machines, so every document is checked against Kubernetes' published schemas
 * (kubernetes-models) and against the repo itself: each process's own env reader decides which
 * variables it needs and whether the manifests' environment starts it, the Dockerfile and
 * docker-compose.yml say which image and command each process runs, and the probes must reach
 * what each process really serves.
 */
import { randomBytes } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { routes } from '@spacecadet/contract';
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { Job } from 'kubernetes-models/batch/v1';
import { Ingress } from 'kubernetes-models/networking.k8s.io/v1';
import { ConfigMap, Secret, Service } from 'kubernetes-models/v1';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { loadApiConfig } from '../apps/api/src/env.ts';
import { loadDashboardEnv } from '../apps/dashboard/server/env.ts';
import { loadWorkerConfig } from '../apps/worker/src/env.ts';
import { loadMigrateEnv } from '../packages/db/src/env.ts';
import { loadProxyConfig } from '../packages/discord-proxy/src/env.ts';

const root = join(import.meta.dirname, '..');
const dir = join(root, 'deploy/kubernetes');
const read = (path: string) => readFileSync(join(root, path), 'utf8');

// biome-ignore lint/suspicious/noExplicitAny: manifests are untyped YAML, checked by the schemas below.
type Doc = any;
type Env = Record<string, string>;

const MODELS: Record<string, new (data: never) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/Secret': Secret,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'batch/v1/Job': Job,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'networking.k8s.io/v1/Ingress': Ingress,
};

const files = readdirSync(dir).filter((name) => name.endsWith('.yaml') && name !== 'kustomization.yaml');
const docs: Array<{ file: string; doc: Doc }> = files.flatMap((file) =>
  parseAllDocuments(readFileSync(join(dir, file), 'utf8')).map((parsed) => {
    if (parsed.errors.length > 0) throw new Error(`${file}: ${parsed.errors[0]?.message}`);
    return { file, doc: parsed.toJS() as Doc };
  }),
);
const kustomization = parse(readFileSync(join(dir, 'kustomization.yaml'), 'utf8')) as Doc;

function find(kind: string, name: string): Doc {
  const found = docs.find(({ doc }) => doc.kind === kind && doc.metadata?.name === name)?.doc;
  if (!found) throw new Error(`no ${kind} ${name} in deploy/kubernetes`);
  return found;
}
const config = find('ConfigMap', 'spacecadet-config').data as Env;
const secret = find('Secret', 'spacecadet-secrets').stringData as Env;
const workloads = docs.map(({ doc }) => doc).filter((doc) => doc.spec?.template?.spec?.containers);

/**
 * The environment a container of pod `podName` gets: envFrom first, then its own entries (which
 * win), each `$(NAME)` replaced by the value of a variable defined before it, as the kubelet does.
 */
function containerEnv(container: Doc, podName: string): Env {
  const source = (ref: Doc, kind: 'configMap' | 'secret'): Env => {
    const data = kind === 'configMap' ? config : secret;
    const name = kind === 'configMap' ? 'spacecadet-config' : 'spacecadet-secrets';
    if (ref.name !== name) throw new Error(`unknown ${kind} ${ref.name}`);
    return data;
  };
  const env: Env = {};
  for (const from of container.envFrom ?? []) {
    Object.assign(
      env,
      source(from.configMapRef ?? from.secretRef, from.configMapRef ? 'configMap' : 'secret'),
    );
  }
  for (const entry of container.env ?? []) {
    const ref = entry.valueFrom?.configMapKeyRef ?? entry.valueFrom?.secretKeyRef;
    const field = entry.valueFrom?.fieldRef?.fieldPath;
    const value =
      field === 'metadata.name'
        ? podName
        : ref
          ? source(ref, entry.valueFrom.configMapKeyRef ? 'configMap' : 'secret')[ref.key]
          : entry.value;
    if (typeof value !== 'string') throw new Error(`${container.name}: ${entry.name} has no value`);
    env[entry.name] = value.replace(/\$\(([A-Z_][A-Z0-9_]*)\)/g, (whole, name: string) => env[name] ?? whole);
  }
  return env;
}

/**
 * Each workload with the compose service that runs the same process and that process's env
 * reader. Every variable compose gives the service and the reader reads must be set here.
 */
const PROCESSES: Array<{ workload: string; compose: string; load: (env: Env) => unknown }> = [
  { workload: 'Deployment/api', compose: 'api', load: loadApiConfig },
  { workload: 'StatefulSet/worker', compose: 'worker-pool', load: loadWorkerConfig },
  { workload: 'StatefulSet/discord-proxy', compose: 'discord-proxy', load: loadProxyConfig },
  { workload: 'Deployment/dashboard', compose: 'dashboard', load: loadDashboardEnv },
  { workload: 'Job/spacecadet-migrate', compose: 'migrate', load: loadMigrateEnv },
];

/** Not set on purpose: the worker's probes read /metrics, which answers 401 with a token. */
const LEFT_UNSET: Record<string, string> = { METRICS_TOKEN: 'probes read /metrics without a token' };

/**
 * Read by no process: Kubernetes substitutes it into the proxy's DISCORD_PROXY_ADVERTISE_URL (the
 * address it gives the other proxies).
 */
const SUBSTITUTED_ONLY = ['POD_NAME'];

function processOf(workload: Doc, ordinal = 0) {
  const entry = PROCESSES.find((p) => p.workload === `${workload.kind}/${workload.metadata.name}`);
  if (!entry) throw new Error(`${workload.kind} ${workload.metadata.name} is no process this test knows`);
  const [container, ...others] = workload.spec.template.spec.containers as Doc[];
  if (others.length > 0) throw new Error(`${workload.metadata.name}: one container expected`);
  return { ...entry, container, env: containerEnv(container, `${workload.metadata.name}-${ordinal}`) };
}

/** The variables an env reader reads, recorded while it reads `env`. */
function readsOf(load: (env: Env) => unknown, env: Env): Set<string> {
  const names = new Set<string>();
  const recording = new Proxy(env, {
    get(target, key) {
      if (typeof key === 'string' && /^[A-Z][A-Z0-9_]*$/.test(key)) names.add(key);
      return Reflect.get(target, key);
    },
  });
  try {
    load(recording);
  } catch {
    // Only the names matter here; whether it starts is the next test's.
  }
  return names;
}

const compose = (file: string) => parse(read(file), { merge: true }) as Doc;
const composeFiles = [compose('docker-compose.yml'), compose('docker-compose.live.yml')];
const composeEnvNames = (service: string) =>
  new Set(composeFiles.flatMap((file) => Object.keys(file.services?.[service]?.environment ?? {})));
const composeTarget = (service: string): string => composeFiles[0].services[service].build.target;

/** What an operator puts in place of each REPLACE_ME. */
const FILLED: Env = {
  DISCORD_CLIENT_ID: '123456789012345678',
  DISCORD_BOT_TOKEN: 'an-operators-bot-token',
  DISCORD_CLIENT_SECRET: 'an-operators-client-secret',
  // Fresh each run, so no test publishes a session secret (contract's production-env test greps for them).
  SESSION_SECRET: randomBytes(32).toString('hex'),
  DATABASE_URL: 'postgres://spacecadet:password@postgres.example.internal:5432/spacecadet',
  REDIS_URL: 'redis://redis.example.internal:6379',
};
function filled(env: Env): Env {
  return Object.fromEntries(
    Object.entries(env).map(([name, value]) => {
      if (value !== 'REPLACE_ME') return [name, value];
      const fill = FILLED[name];
      if (fill === undefined) throw new Error(`no filled value for ${name}`);
      return [name, fill];
    }),
  );
}

function stageCommand(target: string): string[] {
  const stage = new RegExp(`^FROM base AS ${target}\\n([\\s\\S]*?)(?=^FROM |$(?![\\s\\S]))`, 'm').exec(
    read('Dockerfile'),
  );
  const cmd = stage?.[1] ? /^CMD (\[.*\])$/m.exec(stage[1]) : null;
  if (!cmd?.[1]) throw new Error(`Dockerfile stage ${target} has no CMD`);
  return JSON.parse(cmd[1]) as string[];
}

/**
 * What the schemas let pass: they allow fields they do not name (a misspelt `livenesProbe` is
 * valid JSON Schema, and Kubernetes would drop or refuse it) and enums as plain strings. The
 * published types do not: each document is typechecked as a literal of its kind's interface,
 * where TypeScript refuses unknown properties and values outside an enum.
 */
function typeErrors(): string[] {
  const file = join(import.meta.dirname, '__kubernetes-manifests.ts');
  const text = docs
    .map(
      ({ doc }, i) =>
        `import type { I${doc.kind} as T${i} } from 'kubernetes-models/${doc.apiVersion}';\n` +
        `export const d${i}: T${i} = ${JSON.stringify(doc, null, 1)};\n`,
    )
    .join('');
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    target: ts.ScriptTarget.ES2022,
    skipLibCheck: true,
    types: [],
  };
  const host = ts.createCompilerHost(options);
  const { getSourceFile, fileExists } = host;
  host.getSourceFile = (name, language, ...rest) =>
    name === file
      ? ts.createSourceFile(name, text, language)
      : getSourceFile.call(host, name, language, ...rest);
  host.fileExists = (name) => name === file || fileExists.call(host, name);
  return ts
    .getPreEmitDiagnostics(ts.createProgram([file], options, host))
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, ' '));
}

describe('deploy/kubernetes', () => {
  it.each(docs.map(({ file, doc }) => [`${file} ${doc.kind} ${doc.metadata?.name}`, doc]))(
    '%s fits Kubernetes’ schema',
    (_name, doc) => {
      const Model = MODELS[`${doc.apiVersion}/${doc.kind}`];
      expect(Model, `${doc.apiVersion} ${doc.kind}`).toBeDefined();
      if (Model) expect(() => new Model(doc as never).validate()).not.toThrow();
    },
  );

  it('uses only the fields and values Kubernetes’ published types know', () => {
    expect(typeErrors()).toEqual([]);
  });

  it('applies every manifest but the Secret template, with an image entry for each image', () => {
    expect([...kustomization.resources].sort()).toEqual(
      files.filter((f) => f !== 'secret.example.yaml').sort(),
    );
    const images = workloads.flatMap((w) => w.spec.template.spec.containers.map((c: Doc) => c.image));
    expect(kustomization.images.map((i: Doc) => `${i.name}:latest`).sort()).toEqual(
      [...new Set(images)].sort(),
    );
  });

  it('runs every process from the Dockerfile stage compose builds for it', () => {
    expect(workloads.map((w) => `${w.kind}/${w.metadata.name}`).sort()).toEqual(
      PROCESSES.map((p) => p.workload).sort(),
    );
    for (const workload of workloads) {
      const { compose: service, container } = processOf(workload);
      expect(container.image).toBe(`spacecadet-${composeTarget(service)}:latest`);
      expect(container.command).toBeUndefined();
    }
    const migrate = processOf(find('Job', 'spacecadet-migrate')).container;
    expect(migrate.args).toEqual(stageCommand(composeTarget('migrate')));
    expect(migrate.args).toEqual(['pnpm', 'db:migrate']);
  });

  it('gives every process each variable compose gives it that its env reader reads', () => {
    for (const workload of workloads) {
      const { workload: name, compose: service, load, env } = processOf(workload);
      const reads = readsOf(load, env);
      const needed = [...composeEnvNames(service)].filter((n) => reads.has(n) && !(n in LEFT_UNSET));
      expect(needed.length, name).toBeGreaterThan(0);
      expect(
        needed.filter((n) => !(n in env)),
        name,
      ).toEqual([]);
      // And nothing a reader does not read: a misspelt name would be silently ignored.
      const own = (processOf(workload).container.env ?? []).map((e: Doc) => e.name as string);
      const pending = name === 'StatefulSet/discord-proxy' ? SUBSTITUTED_ONLY : [];
      expect(
        own.filter((n: string) => !reads.has(n) && !pending.includes(n)),
        name,
      ).toEqual([]);
    }
    // And every key of the ConfigMap and the Secret is read by some process.
    const readByAny = new Set(workloads.map(processOf).flatMap((p) => [...readsOf(p.load, p.env)]));
    for (const [what, data] of [
      ['ConfigMap', config],
      ['Secret', secret],
    ] as const) {
      expect(
        Object.keys(data).filter((k) => !readByAny.has(k)),
        what,
      ).toEqual([]);
    }
  });

  it('starts every process in production once the placeholders are filled, and refuses them unfilled', () => {
    for (const workload of workloads) {
      const { workload: name, load, env } = processOf(workload);
      expect(() => load(filled(env)), name).not.toThrow();
    }
    expect(() => loadApiConfig(processOf(find('Deployment', 'api')).env)).toThrow(
      /DISCORD_CLIENT_ID[\s\S]*SESSION_SECRET|SESSION_SECRET[\s\S]*DISCORD_CLIENT_ID/,
    );
    expect(() => loadWorkerConfig(processOf(find('StatefulSet', 'worker')).env)).toThrow(/DATABASE_URL/);
    expect(Object.values(secret).every((value) => value === 'REPLACE_ME')).toBe(true);
    expect(Object.keys(secret).sort()).toEqual(
      Object.keys(FILLED)
        .filter((k) => k !== 'DISCORD_CLIENT_ID')
        .sort(),
    );
  });

  it('runs the workers as replicas claiming SHARD_COUNT shards (SHARD_IDS=auto)', () => {
    const worker = find('StatefulSet', 'worker');
    const shards = loadWorkerConfig(filled(processOf(worker).env));
    expect(shards.shards?.ids).toBe('auto');
    expect(worker.spec.replicas * shards.shardsPerProcess).toBe(shards.shards?.count);
    // The API queues a guild's jobs for the worker holding its shard: it counts them alike.
    expect(loadApiConfig(filled(processOf(find('Deployment', 'api')).env)).shardCount).toBe(
      shards.shards?.count,
    );
    expect(find('Service', worker.spec.serviceName).spec.clusterIP).toBe('None');
  });

  it('points the API and the workers at each proxy pod through its headless Service', () => {
    const proxy = find('StatefulSet', 'discord-proxy');
    const port = loadProxyConfig(filled(processOf(proxy).env)).port;
    const service = find('Service', proxy.spec.serviceName);
    expect(service.spec.clusterIP).toBe('None');
    expect(proxy.spec.replicas).toBe(2);
    const urls = Array.from(
      { length: proxy.spec.replicas },
      (_, i) => `http://discord-proxy-${i}.${service.metadata.name}:${port}/api`,
    );
    expect(config.DISCORD_PROXY_URL?.split(',')).toEqual(urls);
    // The readers take the list as one URL per proxy, in order.
    const env = filled({ ...config, ...secret });
    expect(loadApiConfig(env).discord.proxyBases).toEqual(urls);
    expect(loadWorkerConfig(env).discordProxyUrls).toEqual(urls);
    // Each proxy pod tells the others its own entry of the list, and keeps its lease in the
    // Redis every other process uses.
    for (let ordinal = 0; ordinal < proxy.spec.replicas; ordinal++) {
      const { env } = processOf(proxy, ordinal);
      expect(env.DISCORD_PROXY_ADVERTISE_URL).toBe(urls[ordinal]);
      expect(env.REDIS_URL).toBe(secret.REDIS_URL);
      expect(env.REDIS_PREFIX).toBe(config.REDIS_PREFIX);
    }
  });

  it('probes each process where it listens, on what it serves', () => {
    const checks: Array<[string, (env: Env) => { port: number; host: string }, Record<string, string>]> = [
      [
        'Deployment/api',
        (env) => loadApiConfig(env),
        { liveness: routes.healthz.path, readiness: routes.readyz.path },
      ],
      [
        'StatefulSet/discord-proxy',
        (env) => loadProxyConfig(env),
        { liveness: '/healthz', readiness: '/healthz' },
      ],
      [
        'StatefulSet/worker',
        (env) => {
          // Its only listener: /metrics, on METRICS_PORT (unset: none, and no port matches).
          const { host, port } = loadWorkerConfig(env).metrics;
          return { host, port: port ?? 0 };
        },
        { liveness: '/metrics' },
      ],
      ['Deployment/dashboard', (env) => loadDashboardEnv(env), { liveness: '/', readiness: '/' }],
    ];
    // The paths the proxy and the worker's metrics listener answer, read from their source.
    expect(read('packages/discord-proxy/src/proxy.ts')).toContain("url.pathname === '/healthz'");
    expect(read('packages/runtime/src/metrics-server.ts')).toContain("path !== '/metrics'");
    for (const [name, listen, paths] of checks) {
      const [kind, workloadName] = name.split('/') as [string, string];
      const { container, env } = processOf(find(kind, workloadName));
      const at = listen(filled(env));
      // 127.0.0.1, the readers' default, would be unreachable for the kubelet.
      expect(at.host, name).toBe('0.0.0.0');
      for (const probe of ['liveness', 'readiness', 'startup']) {
        const spec = container[`${probe}Probe`];
        expect(spec?.httpGet?.path, `${name} ${probe}`).toBe(paths[probe]);
        if (!spec) continue;
        const port = container.ports.find((p: Doc) => p.name === spec.httpGet.port)?.containerPort;
        expect(port, `${name} ${probe}`).toBe(at.port);
      }
    }
  });

  it('scales the API Deployment on CPU, and leaves its replica count to the autoscaler', () => {
    const hpa = find('HorizontalPodAutoscaler', 'api');
    expect(hpa.spec.scaleTargetRef).toEqual({ apiVersion: 'apps/v1', kind: 'Deployment', name: 'api' });
    expect(find('Deployment', 'api').spec.replicas).toBeUndefined();
    expect(hpa.spec.metrics).toEqual([
      {
        type: 'Resource',
        resource: { name: 'cpu', target: { type: 'Utilization', averageUtilization: expect.any(Number) } },
      },
    ]);
    expect(hpa.spec.minReplicas).toBeGreaterThanOrEqual(2);
  });

  it('requests CPU and memory for every container and caps its memory', () => {
    for (const workload of workloads) {
      for (const container of workload.spec.template.spec.containers) {
        expect(container.resources?.requests, container.name).toEqual({
          cpu: expect.any(String),
          memory: expect.any(String),
        });
        expect(container.resources?.limits?.memory, container.name).toEqual(expect.any(String));
      }
    }
  });

  it('routes the two public hosts to Services that select pods on named ports', () => {
    const ingress = find('Ingress', 'spacecadet');
    const hostOf = (url: string | undefined) => new URL(url ?? '').hostname;
    const backends = Object.fromEntries(
      ingress.spec.rules.map((rule: Doc) => [rule.host, rule.http.paths[0].backend.service.name]),
    );
    expect(backends).toEqual({
      [hostOf(config.DASHBOARD_URL)]: 'dashboard',
      [hostOf(config.PUBLIC_API_URL)]: 'api',
    });
    for (const service of docs.map(({ doc }) => doc).filter((doc) => doc.kind === 'Service')) {
      const pods = workloads.filter((w) =>
        Object.entries(service.spec.selector).every(([k, v]) => w.spec.template.metadata.labels[k] === v),
      );
      expect(pods.length, service.metadata.name).toBe(1);
      const ports = pods[0].spec.template.spec.containers[0].ports.map((p: Doc) => p.name);
      for (const port of service.spec.ports) expect(ports, service.metadata.name).toContain(port.targetPort);
    }
  });
});
