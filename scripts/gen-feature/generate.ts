/**
 * `pnpm gen feature <name>`: writes a new feature into every layer and registers it everywhere
 * the repository lists features (the recipe of docs/architecture.md, "Adding a feature"). The
 * feature is a working slice: a per-guild `enabled` setting stored in Postgres, read and written
 * by the API, edited on its dashboard page, and reported by the bot's `/<name>` command.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** The spellings of a feature name the templates use (`welcome-notes` -> `WelcomeNotes`, …). */
export interface FeatureNames {
  kebab: string;
  camel: string;
  Pascal: string;
  snake: string;
  CONST: string;
  Title: string;
}

/** A slash command name and a URL segment at once: Discord allows at most 32 characters. */
const FEATURE_NAME = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

export function featureNames(kebab: string): FeatureNames {
  if (!FEATURE_NAME.test(kebab) || kebab.length > 32) {
    throw new Error(`Feature name must be kebab-case (a-z, 0-9, -), at most 32 characters: ${kebab}`);
  }
  const words = kebab.split('-');
  const cap = (word: string) => word[0]?.toUpperCase() + word.slice(1);
  const Pascal = words.map(cap).join('');
  return {
    kebab,
    camel: Pascal[0]?.toLowerCase() + Pascal.slice(1),
    Pascal,
    snake: words.join('_'),
    CONST: words.join('_').toUpperCase(),
    Title: words.map(cap).join(' '),
  };
}

const TEMPLATES = join(import.meta.dirname, 'templates');

/** New files: template -> path in the repository (both may hold name placeholders). */
const NEW_FILES: readonly [template: string, path: string][] = [
  ['contract-schemas.ts.tmpl', 'packages/contract/src/__kebab__/schemas.ts'],
  ['contract-routes.ts.tmpl', 'packages/contract/src/__kebab__/routes.ts'],
  ['db-schema.ts.tmpl', 'packages/db/src/schema/__kebab__.ts'],
  ['db-queries.ts.tmpl', 'packages/db/src/queries/__kebab__.ts'],
  ['db-test.ts.tmpl', 'packages/db/test/__kebab__.test.ts'],
  ['api-service.ts.tmpl', 'apps/api/src/services/__kebab__.ts'],
  ['api-route.ts.tmpl', 'apps/api/src/routes/__kebab__.ts'],
  ['api-restorer.ts.tmpl', 'apps/api/src/history/restore-__kebab__.ts'],
  ['api-test.ts.tmpl', 'apps/api/test/__kebab__.test.ts'],
  ['worker-feature.ts.tmpl', 'apps/worker/src/features/__kebab__/index.ts'],
  ['worker-test.ts.tmpl', 'apps/worker/test/__kebab__.test.ts'],
  ['dashboard-page.tsx.tmpl', 'apps/dashboard/src/dashboard/__kebab__/__Pascal__.tsx'],
  ['dashboard-test.tsx.tmpl', 'apps/dashboard/src/dashboard/__kebab__/__Pascal__.test.tsx'],
];

function fill(text: string, names: FeatureNames): string {
  return text.replace(
    /__(kebab|camel|Pascal|snake|CONST|Title)__/g,
    (_, key: keyof FeatureNames) => names[key],
  );
}

/** One edit of an existing file: what to insert, and where. */
interface Registration {
  path: string;
  edit: (text: string, names: FeatureNames) => string;
}

/** Inserts `line` before the first line matching `anchor` (after the match's start). */
function insertBefore(anchor: string | RegExp, line: string) {
  return (text: string): string => {
    const at = typeof anchor === 'string' ? text.indexOf(anchor) : text.search(anchor);
    if (at < 0) throw new Error(`anchor not found: ${anchor}`);
    return `${text.slice(0, at)}${line}${text.slice(at)}`;
  };
}

/** Inserts `line` after the last line matching `pattern`. */
function insertAfterLast(pattern: RegExp, line: string) {
  return (text: string): string => {
    const lines = text.split('\n');
    const last = lines.findLastIndex((l) => pattern.test(l));
    if (last < 0) throw new Error(`no line matches ${pattern}`);
    lines.splice(last + 1, 0, line);
    return lines.join('\n');
  };
}

/** Adds an import line after the file's last import (Biome then sorts the imports). */
const addImport = (line: string) => insertAfterLast(/^(import |\} from )/, line);

/** Inserts `line` among the consecutive lines matching `pattern`, keeping them sorted. */
function insertSorted(pattern: RegExp, line: string) {
  return (text: string): string => {
    const lines = text.split('\n');
    const first = lines.findIndex((l) => pattern.test(l));
    if (first < 0) throw new Error(`no line matches ${pattern}`);
    let end = first;
    while (end < lines.length && pattern.test(lines[end] ?? '')) end += 1;
    const block = [...lines.slice(first, end), line].sort();
    lines.splice(first, end - first, ...block);
    return lines.join('\n');
  };
}

const then =
  (...edits: ((text: string) => string)[]) =>
  (text: string) =>
    edits.reduce((current, edit) => edit(current), text);

const REGISTRATIONS: readonly Registration[] = [
  {
    path: 'packages/contract/src/routes/index.ts',
    edit: (text, n) =>
      then(
        addImport(`import { ${n.camel}Routes } from '../${n.kebab}/routes.ts';`),
        insertBefore('} as const satisfies Record<string, RouteDef>;', `  ...${n.camel}Routes,\n`),
      )(text),
  },
  {
    // History: the feature's area, its settings action (undone by state) and that state's subject.
    path: 'packages/contract/src/history/actions.ts',
    edit: (text, n) =>
      then(
        insertBefore('] as const;\nexport const HistoryArea = ', `  '${n.snake}',\n`),
        insertBefore(/\n};\n\n\/\*\*\n \* How an entry is undone/, `\n  ${n.snake}: '${n.Title}',`),
        insertBefore(
          '\n  /** An undo is itself an entry',
          `\n  '${n.snake}.settings': { area: '${n.snake}', undo: 'state', label: 'Changed the ${n.Title} settings' },\n`,
        ),
        insertBefore('] as const;\nexport type HistoryStateSubject', `  '${n.snake}:settings',\n`),
      )(text),
  },
  {
    path: 'packages/contract/src/index.ts',
    edit: (text, n) => insertSorted(/^export \* from /, `export * from './${n.kebab}/schemas.ts';`)(text),
  },
  {
    path: 'packages/core/src/product-features.ts',
    edit: (text, n) => {
      if (text.includes(`id: '${n.kebab}',`)) {
        throw new Error(
          `PRODUCT_FEATURES lists ${n.kebab} already: remove that entry first, or pick another name`,
        );
      }
      return insertBefore(
        /\n\];\n\n\/\*\* The features members can use today/,
        `
  {
    id: '${n.kebab}',
    name: '${n.Title}',
    route: '/dashboard/${n.kebab}',
    status: 'live',
    commands: ['${n.kebab}'],
    summary: '${n.Title} on or off.',
    description: 'Turn ${n.Title} on or off for your server; /${n.kebab} tells members whether it is on.',
    landing: false,
    tile: null,
    sidebar: { group: '${n.Title}' },
  },`,
      )(text);
    },
  },
  {
    path: 'packages/db/src/schema.ts',
    edit: (text, n) => insertSorted(/^export \* from /, `export * from './schema/${n.kebab}.ts';`)(text),
  },
  {
    path: 'packages/db/test/migrations.test.ts',
    edit: (text, n) => {
      const start = text.indexOf('const EXPECTED_TABLES = [\n');
      if (start < 0) throw new Error('EXPECTED_TABLES not found');
      const tail = text.slice(start);
      return text.slice(0, start) + insertSorted(/^ {2}'[a-z0-9_]+',$/, `  '${n.snake}_settings',`)(tail);
    },
  },
  {
    path: 'apps/api/src/routes/index.ts',
    edit: (text, n) =>
      then(
        addImport(`import { register${n.Pascal}Routes } from './${n.kebab}.ts';`),
        insertBefore(/\n}\n?$/, `\n  register${n.Pascal}Routes(app);`),
      )(text),
  },
  {
    path: 'apps/api/src/history/index.ts',
    edit: (text, n) =>
      then(
        addImport(`import { ${n.camel}Restorers } from './restore-${n.kebab}.ts';`),
        insertBefore('];\n\n/**\n * Every restorer', `  ${n.camel}Restorers,\n`),
      )(text),
  },
  {
    path: 'apps/api/test/samples.ts',
    edit: (text, n) =>
      insertBefore('};\n\nexport const EXTRA_PARAMS', `  put${n.Pascal}: { enabled: true },\n`)(text),
  },
  {
    path: 'apps/worker/src/features/index.ts',
    edit: (text, n) =>
      then(
        addImport(`import { ${n.camel}Feature } from './${n.kebab}/index.ts';`),
        insertBefore('] as const satisfies readonly WorkerFeature[];', `  ${n.camel}Feature,\n`),
      )(text),
  },
  {
    path: 'apps/dashboard/src/dashboard/DashboardApp.tsx',
    edit: (text, n) =>
      then(
        insertAfterLast(
          /^const \w+ = lazy\(/,
          `const ${n.Pascal} = lazy(() => import('./${n.kebab}/${n.Pascal}.tsx'));`,
        ),
        insertBefore(
          /\n *\{\[\.\.\.COMING_SOON_PAGES\.keys\(\)\]/,
          `\n          <Route path="${n.kebab}" element={<Lazy page={<${n.Pascal} />} />} />`,
        ),
      )(text),
  },
  {
    // An undo of the feature's entry on the History page reloads the feature's page.
    path: 'apps/dashboard/src/dashboard/history/history-model.ts',
    edit: (text, n) =>
      insertBefore(
        /\n {4}case 'leveling':/,
        `\n    case '${n.snake}':\n      return [queryKeys.${n.camel}(guildId)];`,
      )(text),
  },
  {
    // The History page's area filter lists the new area last.
    path: 'apps/dashboard/src/dashboard/history/History.test.tsx',
    edit: (text, n) =>
      insertBefore(
        "    ]);\n    fireEvent.change(filter, { target: { value: 'color_roles' } });",
        `      '${n.Title}',\n`,
      )(text),
  },
  {
    path: 'apps/dashboard/src/dashboard/shared/queries.ts',
    edit: (text, n) =>
      insertBefore(
        '  job: (jobId: string)',
        `  ${n.camel}: (guildId: string) => ['${n.kebab}', guildId] as const,\n`,
      )(text),
  },
];

/** Writes the feature into the repository at `root`; answers the files written or edited. */
export function generateFeature(root: string, kebab: string): string[] {
  const names = featureNames(kebab);
  const created = NEW_FILES.map(([template, path]) => [template, fill(path, names)] as const);
  for (const [, path] of created) {
    if (existsSync(join(root, path))) throw new Error(`${path} exists: is ${kebab} a feature already?`);
  }
  const edited = REGISTRATIONS.map(({ path, edit }) => {
    const file = join(root, path);
    return [path, edit(readFileSync(file, 'utf8'), names)] as const;
  });
  for (const [template, path] of created) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), fill(readFileSync(join(TEMPLATES, template), 'utf8'), names));
  }
  for (const [path, text] of edited) writeFileSync(join(root, path), text);

  // The migration, from the schema just written: drizzle-kit compares it with the last snapshot.
  const dbDir = join(root, 'packages/db');
  const before = new Set(readdirSync(join(dbDir, 'drizzle')));
  execFileSync('pnpm', ['exec', 'drizzle-kit', 'generate', '--name', names.snake], {
    cwd: dbDir,
    stdio: 'inherit',
  });
  const migrations = readdirSync(join(dbDir, 'drizzle'))
    .filter((file) => !before.has(file))
    .map((file) => `packages/db/drizzle/${file}`);

  const touched = [...created.map(([, path]) => path), ...edited.map(([path]) => path)];
  execFileSync('pnpm', ['exec', 'biome', 'check', '--write', ...touched], { cwd: root, stdio: 'inherit' });
  return [...touched, ...migrations, 'packages/db/drizzle/meta'];
}

function main(args: string[]): void {
  const [kind, name] = args;
  if (kind !== 'feature' || !name) {
    console.error('usage: pnpm gen feature <name>   (kebab-case, e.g. welcome-notes)');
    process.exit(2);
  }
  const root = join(import.meta.dirname, '..', '..');
  const files = generateFeature(root, name);
  console.log(`Wrote ${name}:\n${files.map((file) => `  ${file}`).join('\n')}`);
}

if (process.argv[1] === import.meta.filename) main(process.argv.slice(2));
