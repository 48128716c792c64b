/**
 * The shape of the source, measured: import circles between files, product files by length and
 * functions by length. `pnpm structure` prints the figures; `scripts/structure.test.ts` holds the
 * house's limits against them.
 *
 * Product files are the TypeScript under `apps/<app>/src` and `packages/<package>/src`, less
 * tests; the import graph also takes in tests and scripts, since a circle is a circle wherever
 * it is.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import ts from 'typescript';

export const repo = join(import.meta.dirname, '..');

/** A file the product runs: under an app's or package's `src`, not a test nor a declaration. */
export function isProductFile(path: string): boolean {
  return (
    /^(apps|packages)\/[^/]+\/src\//.test(path) &&
    /\.tsx?$/.test(path) &&
    !/\.d\.ts$/.test(path) &&
    !/(\.test\.tsx?$|\.test-d\.tsx?$|\/test\/|\/__tests__\/|\/e2e\/)/.test(path)
  );
}

/** Every TypeScript file git knows of (committed or new, not ignored), relative to the repo. */
export function sourceFiles(root = repo): string[] {
  const out = execFileSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: root,
    maxBuffer: 64 * 1024 * 1024,
  }).toString();
  return out
    .split('\0')
    .filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts') && !file.includes('/templates/'))
    .filter((file) => {
      try {
        readFileSync(join(root, file));
        return true;
      } catch {
        return false; // deleted, not yet committed
      }
    });
}

const lineCount = (text: string) => text.split('\n').length - (text.endsWith('\n') ? 1 : 0);

export interface FunctionLength {
  file: string;
  name: string;
  line: number;
  lines: number;
}

/** The name a function goes by: its own, its variable's, its property's or its method's. */
function functionName(node: ts.Node, source: ts.SourceFile): string {
  const named = node as ts.Node & { name?: ts.Node };
  if (named.name) return named.name.getText(source);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(source);
  if (ts.isCallExpression(parent)) {
    const callee = parent.expression.getText(source);
    return `${callee.length > 40 ? `${callee.slice(0, 40)}…` : callee}(…) callback`;
  }
  return '(anonymous)';
}

/** Every function of a file with its length in lines, from its first line to its last. */
export function functionLengths(file: string, text: string): FunctionLength[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: FunctionLength[] = [];
  const lineOf = (pos: number) => source.getLineAndCharacterOfPosition(pos).line;
  function visit(node: ts.Node): void {
    if (ts.isFunctionLike(node) && (node as ts.FunctionLikeDeclaration).body) {
      const line = lineOf(node.getStart(source));
      found.push({
        file,
        name: functionName(node, source),
        line: line + 1,
        lines: lineOf(node.getEnd()) - line + 1,
      });
    }
    ts.forEachChild(node, visit);
  }
  visit(source);
  return found;
}

const EXTENSIONS = ['.ts', '.tsx', '/index.ts', '/index.tsx'];

/** The file a relative import names, if it is one of ours. */
function resolveRelative(from: string, specifier: string, known: Set<string>): string | undefined {
  if (!specifier.startsWith('.')) return undefined;
  const base = join(dirname(from), specifier).replace(/\.(js|jsx|mjs)$/, '');
  if (known.has(base)) return base;
  for (const ext of EXTENSIONS) if (known.has(base + ext)) return base + ext;
  return undefined;
}

/** Imports between files, relative ones (workspace packages import each other by entry point). */
export function importGraph(files: string[], root = repo): Map<string, Set<string>> {
  const known = new Set(files);
  const graph = new Map<string, Set<string>>();
  for (const file of files) {
    const info = ts.preProcessFile(readFileSync(join(root, file), 'utf8'), true, true);
    const targets = new Set<string>();
    for (const ref of info.importedFiles) {
      const target = resolveRelative(file, ref.fileName, known);
      if (target && target !== file) targets.add(target);
    }
    graph.set(file, targets);
  }
  return graph;
}

/** The import circles: each strongly connected set of two or more files (Tarjan's algorithm). */
export function importCircles(graph: Map<string, Set<string>>): string[][] {
  let index = 0;
  const indexes = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  function connect(file: string): void {
    indexes.set(file, index);
    low.set(file, index);
    index += 1;
    stack.push(file);
    onStack.add(file);
    for (const next of graph.get(file) ?? []) {
      if (!indexes.has(next)) {
        connect(next);
        low.set(file, Math.min(low.get(file) ?? 0, low.get(next) ?? 0));
      } else if (onStack.has(next)) low.set(file, Math.min(low.get(file) ?? 0, indexes.get(next) ?? 0));
    }
    if (low.get(file) === indexes.get(file)) {
      const set: string[] = [];
      let member: string | undefined;
      do {
        member = stack.pop();
        if (member === undefined) break;
        onStack.delete(member);
        set.push(member);
      } while (member !== file);
      if (set.length > 1) circles.push(set.sort());
    }
  }
  for (const file of graph.keys()) if (!indexes.has(file)) connect(file);
  return circles;
}

export interface Structure {
  circles: string[][];
  files: { file: string; lines: number; opening: string }[];
  functions: FunctionLength[];
}

/**
 * The comments at the top of a file: those before its first statement that is not an import,
 * that statement's own doc comment included (a module's comment often follows its imports).
 */
export function openingComments(file: string, text: string): string {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const first = source.statements.find((statement) => !ts.isImportDeclaration(statement));
  const head = text.slice(0, first ? first.getStart(source) : text.length);
  return (head.match(/\/\*[\s\S]*?\*\/|\/\/[^\n]*/g) ?? []).join('\n');
}

export function measure(root = repo): Structure {
  const files = sourceFiles(root);
  const product = files.filter(isProductFile);
  const texts = new Map(product.map((file) => [file, readFileSync(join(root, file), 'utf8')]));
  return {
    circles: importCircles(importGraph(files, root)),
    files: product
      .map((file) => {
        const text = texts.get(file) ?? '';
        return { file, lines: lineCount(text), opening: openingComments(file, text) };
      })
      .sort((a, b) => b.lines - a.lines),
    functions: product
      .flatMap((file) => functionLengths(file, texts.get(file) ?? ''))
      .sort((a, b) => b.lines - a.lines),
  };
}

if (process.argv[1] && relative(process.argv[1], import.meta.filename) === '') {
  const { circles, files, functions } = measure();
  const total = files.reduce((sum, { lines }) => sum + lines, 0);
  console.log(`product source: ${files.length} files, ${total} lines`);
  console.log(`import circles: ${circles.length}`);
  for (const circle of circles) console.log(`  ${circle.join(' ↔ ')}`);
  const over = (limit: number) => files.filter(({ lines }) => lines > limit);
  console.log(`files over 300 lines: ${over(300).length}, over 400: ${over(400).length}`);
  for (const { file, lines } of over(300)) console.log(`  ${lines}\t${file}`);
  const longer = (limit: number) => functions.filter(({ lines }) => lines > limit);
  console.log(`functions over 80 lines: ${longer(80).length}, over 120: ${longer(120).length}`);
  for (const { file, name, line, lines } of longer(80)) console.log(`  ${lines}\t${file}:${line} ${name}`);
}
