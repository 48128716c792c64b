import { describe, expect, it } from 'vitest';
import { functionLengths, importCircles, isProductFile, measure, openingComments } from './structure.ts';

/**
 * The house's limits on the shape of the source (`pnpm structure` prints the figures): no two
 * files lean on each other, no product file over 400 lines, none over 300 without a reason
 * written at its top, and no function over 120 lines.
 */
const MAX_FILE_LINES = 400;
const EXPLAINED_FILE_LINES = 300;
const MAX_FUNCTION_LINES = 120;
const REASON = 'Why one file:';

const { circles, files, functions } = measure();

describe('the measures', () => {
  it('finds a circle of two files and of three, and none in a chain', () => {
    const graph = new Map([
      ['a.ts', new Set(['b.ts'])],
      ['b.ts', new Set(['a.ts', 'c.ts'])],
      ['c.ts', new Set(['d.ts'])],
      ['d.ts', new Set(['e.ts'])],
      ['e.ts', new Set(['c.ts'])],
      ['f.ts', new Set(['a.ts'])],
    ]);
    expect(importCircles(graph)).toEqual(
      expect.arrayContaining([
        ['a.ts', 'b.ts'],
        ['c.ts', 'd.ts', 'e.ts'],
      ]),
    );
    expect(importCircles(graph)).toHaveLength(2);
    expect(
      importCircles(
        new Map([
          ['x.ts', new Set(['y.ts'])],
          ['y.ts', new Set<string>()],
        ]),
      ),
    ).toEqual([]);
  });

  it('measures a function from its first line to its last, inner ones too', () => {
    const text = [
      'function outer() {',
      '  const inner = () => {',
      '    return 1;',
      '  };',
      '  return inner();',
      '}',
      '',
    ];
    expect(functionLengths('x.ts', text.join('\n'))).toEqual([
      { file: 'x.ts', name: 'outer', line: 1, lines: 6 },
      { file: 'x.ts', name: 'inner', line: 2, lines: 3 },
    ]);
  });

  it('reads the comments at the top of a file, after its imports, not those further down', () => {
    const text = [
      "import { a } from './a.ts';",
      '/** Why one file: the reason. */',
      'export const b = a;',
      '// later',
      '',
    ].join('\n');
    expect(openingComments('x.ts', text)).toBe('/** Why one file: the reason. */');
  });

  it('counts product files: sources of apps and packages, not their tests', () => {
    expect(isProductFile('apps/api/src/routes/history.ts')).toBe(true);
    expect(isProductFile('apps/dashboard/src/dashboard/DashboardApp.tsx')).toBe(true);
    expect(isProductFile('apps/dashboard/src/dashboard/DashboardApp.test.tsx')).toBe(false);
    expect(isProductFile('apps/api/test/harness.ts')).toBe(false);
    expect(isProductFile('scripts/structure.ts')).toBe(false);
    expect(files.length).toBeGreaterThan(100);
  });
});

describe('the source', () => {
  it('has no import circle: no two files import each other, directly or round about', () => {
    expect(circles.map((circle) => circle.join(' ↔ '))).toEqual([]);
  });

  it(`has no product file over ${MAX_FILE_LINES} lines`, () => {
    const long = files
      .filter(({ lines }) => lines > MAX_FILE_LINES)
      .map(({ file, lines }) => `${file} (${lines})`);
    expect(long).toEqual([]);
  });

  it(`says at the top of a product file over ${EXPLAINED_FILE_LINES} lines why it is one file ("${REASON}")`, () => {
    const unexplained = files
      .filter(({ lines, opening }) => lines > EXPLAINED_FILE_LINES && !opening.includes(REASON))
      .map(({ file, lines }) => `${file} (${lines})`);
    expect(unexplained).toEqual([]);
  });

  it(`has no function over ${MAX_FUNCTION_LINES} lines`, () => {
    const long = functions
      .filter(({ lines }) => lines > MAX_FUNCTION_LINES)
      .map(({ file, line, name, lines }) => `${file}:${line} ${name} (${lines})`);
    expect(long).toEqual([]);
  });
});
