import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = dirname(dirname(fileURLToPath(import.meta.url)));

/** `colour` outside comments, as `file:line`: the UI spells it the American way. */
function britishColour(): string[] {
  const found: string[] = [];
  const files = readdirSync(SRC, { recursive: true, encoding: 'utf8' }).filter(
    (file) => /\.tsx?$/.test(file) && !/\.test\.tsx?$/.test(file),
  );
  for (const file of files) {
    let inBlock = false;
    readFileSync(join(SRC, file), 'utf8')
      .split('\n')
      .forEach((raw, index) => {
        let line = raw;
        if (inBlock) {
          const end = line.indexOf('*/');
          if (end === -1) return;
          line = line.slice(end + 2);
          inBlock = false;
        }
        // Block comments (also JSX `{/* */}`), then a `//` comment not inside a URL.
        line = line.replace(/\/\*.*?\*\//g, '');
        const open = line.indexOf('/*');
        if (open !== -1) {
          line = line.slice(0, open);
          inBlock = true;
        }
        line = line.replace(/(^|\s)\/\/.*$/, '');
        if (/colour/i.test(line)) found.push(`${file}:${index + 1}`);
      });
  }
  return found;
}

describe('user-visible spelling', () => {
  it('says color, never colour, outside comments', () => {
    expect(britishColour()).toEqual([]);
  });
});
