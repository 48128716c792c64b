import { readFileSync } from 'node:fs';
import * as spec from 'discord-api-spec/zod';
import * as z from 'zod/mini';

/**
 * Discord's published OpenAPI description as the `discord-api-spec` package ships it: zod
 * schemas per component (`discord-api-spec/zod`) and the typed `Paths` table (its .ts file),
 * from which this reads, per route and method, the success status and the response type.
 */
export type Method = 'get' | 'put' | 'post' | 'patch' | 'delete';
export interface SpecResponse {
  status: number;
  type: string;
}

function pathsSource(): string {
  // The package's exports list no .ts file; this package's node_modules link holds it.
  const file = new URL('../node_modules/discord-api-spec/build/discord-api-spec.ts', import.meta.url);
  return readFileSync(file, 'utf8');
}

/** `{ '/channels/{channel_id}/messages': { post: [{status: 200, type: 'MessageResponse'}] } }` */
export function specResponses(): Map<string, Map<Method, SpecResponse[]>> {
  const lines = pathsSource().split('\n');
  const start = lines.findIndex((line) => line.startsWith('export interface Paths {'));
  const table = new Map<string, Map<Method, SpecResponse[]>>();
  let path: string | null = null;
  let method: Method | null = null;
  let inResponses = false;
  let pending: { status: number; text: string } | null = null;
  for (const line of lines.slice(start + 1)) {
    if (line === '}') break;
    const pathMatch = /^ {2}"(\/[^"]*)": \{$/.exec(line);
    if (pathMatch?.[1]) {
      path = pathMatch[1];
      table.set(path, new Map());
      continue;
    }
    const methodMatch = /^ {4}(get|put|post|patch|delete): \{$/.exec(line);
    if (methodMatch?.[1] && path) {
      method = methodMatch[1] as Method;
      table.get(path)?.set(method, []);
      inResponses = false;
      continue;
    }
    if (/^ {6}responses: \{$/.test(line)) {
      inResponses = true;
      continue;
    }
    if (!inResponses || !path || !method) continue;
    if (/^ {6}\};?$/.test(line)) {
      inResponses = false;
      continue;
    }
    const statusMatch = /^ {8}"(2\d\d)":\s*(.*)$/.exec(line);
    if (statusMatch?.[1]) pending = { status: Number(statusMatch[1]), text: statusMatch[2] ?? '' };
    else if (pending) pending.text += ` ${line.trim()}`;
    if (pending?.text.trim().endsWith(';')) {
      table
        .get(path)
        ?.get(method)
        ?.push({ status: pending.status, type: pending.text.trim().replace(/;$/, '').trim() });
      pending = null;
    }
  }
  return table;
}

const schemas = spec as unknown as Record<string, z.ZodMiniType>;

/** The zod schema for a response type as the Paths table writes it (`A[] | null`, `A | B`). */
export function schemaOf(type: string): z.ZodMiniType {
  const text = type.replace(/\s+/g, ' ').trim();
  const parts: string[] = [];
  let depth = 0;
  let current = '';
  for (const ch of text) {
    if (ch === '(') depth += 1;
    if (ch === ')') depth -= 1;
    if (ch === '|' && depth === 0) {
      parts.push(current.trim());
      current = '';
    } else current += ch;
  }
  parts.push(current.trim());
  const options = parts
    .filter((p) => p !== '')
    .map((part): z.ZodMiniType => {
      if (part.endsWith('[]')) return z.array(schemaOf(part.slice(0, -2)));
      if (part.startsWith('(') && part.endsWith(')')) return schemaOf(part.slice(1, -1));
      if (part === 'null') return z.null();
      if (part === 'unknown' || part === 'void' || part === 'never') return z.unknown();
      const schema = schemas[`${part}Schema`];
      if (!schema) throw new Error(`discord-api-spec has no schema for ${part}`);
      return schema;
    });
  const [first, ...rest] = options;
  if (!first) throw new Error(`empty response type "${type}"`);
  return rest.length === 0 ? first : z.union([first, ...rest]);
}
