import type { APIAttachment } from 'discord-api-types/v10';
import type { FastifyInstance } from 'fastify';
import type { SandboxState } from '../state.ts';
import { type Issue, toErrors } from './discord-errors.ts';
import type { BodyProblem } from './message-body-types.ts';

/** Discord's limits on a message's files: 10 attachments, 10 MiB a request (a server without boosts). */
export const MAX_ATTACHMENTS = 10;
export const UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024;
/** What the parser reads before giving up; past the upload limit the answer is 413 40005 anyway. */
const MULTIPART_READ_LIMIT = 4 * UPLOAD_LIMIT_BYTES;

/** A file part of a multipart body: `files[n]` (its `n` is the id `attachments[].id` refers to). */
export interface Upload {
  ref: string;
  filename: string;
  contentType: string;
  bytes: Buffer;
}

const uploads = new WeakMap<object, Upload[]>();

/** The files that came with a parsed body (none for a JSON body). */
export function uploadsOf(body: unknown): Upload[] {
  return typeof body === 'object' && body !== null ? (uploads.get(body) ?? []) : [];
}

const tooLarge = () =>
  Object.assign(new Error('Request entity too large'), { statusCode: 413, discordCode: 40005 });

const byExtension: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  gif: 'image/gif',
  webp: 'image/webp',
  txt: 'text/plain; charset=utf-8',
  json: 'application/json; charset=utf-8',
  csv: 'text/csv; charset=utf-8',
};

/** The part's type, or (as Discord does for an untyped part) one guessed from the file name. */
function contentTypeOf(filename: string, declared: string): string {
  if (declared && declared !== 'application/octet-stream') return declared;
  const ext = /\.([a-z0-9]+)$/i.exec(filename)?.[1]?.toLowerCase() ?? '';
  return byExtension[ext] ?? 'application/octet-stream';
}

/**
 * Discord's `multipart/form-data` message bodies: `payload_json` holds the JSON body (or plain
 * form fields such as `content` stand for it), every file part is an upload. Over the upload
 * limit the request is refused with 413 40005 before any route looks at it.
 */
export function registerMultipart(app: FastifyInstance): void {
  app.addContentTypeParser(
    'multipart/form-data',
    { parseAs: 'buffer', bodyLimit: MULTIPART_READ_LIMIT },
    (req, raw, done) => {
      const type = req.headers['content-type'] ?? '';
      new Response(new Uint8Array(raw as Buffer), { headers: { 'content-type': type } })
        .formData()
        .then(async (form) => {
          let body: Record<string, unknown> = {};
          const files: Upload[] = [];
          const fields: Record<string, string> = {};
          let index = 0;
          const parts: Array<[string, Parameters<Parameters<FormData['forEach']>[0]>[0]]> = [];
          form.forEach((value, name) => {
            parts.push([name, value]);
          });
          for (const [name, value] of parts) {
            if (typeof value === 'string') {
              fields[name] = value;
              continue;
            }
            const ref = /^files\[(\d+)\]$/.exec(name)?.[1] ?? String(index);
            index += 1;
            files.push({
              ref,
              filename: value.name || 'blob',
              contentType: contentTypeOf(value.name, value.type),
              bytes: Buffer.from(await value.arrayBuffer()),
            });
          }
          if (files.reduce((sum, f) => sum + f.bytes.length, 0) > UPLOAD_LIMIT_BYTES) throw tooLarge();
          if (fields.payload_json !== undefined) {
            const parsed: unknown = JSON.parse(fields.payload_json);
            if (typeof parsed === 'object' && parsed !== null) body = parsed as Record<string, unknown>;
          } else {
            body = { ...fields };
            if (typeof fields.flags === 'string') body.flags = Number(fields.flags);
          }
          uploads.set(body, files);
          // An interaction callback's message is its `data`: the files belong to it.
          if (typeof body.data === 'object' && body.data !== null) uploads.set(body.data, files);
          done(null, body);
        })
        .catch((error: Error & { statusCode?: number }) => {
          if (error.statusCode === 413) return done(error, undefined);
          if (error instanceof SyntaxError)
            return done(Object.assign(error, { statusCode: 400, discordCode: 50109 }), undefined);
          done(Object.assign(new Error('Invalid multipart body'), { statusCode: 400 }), undefined);
        });
    },
  );
}

/** Width and height of a PNG, GIF or JPEG, as Discord reports them for images; null for others. */
export function imageSize(bytes: Buffer): { width: number; height: number } | null {
  if (
    bytes.length >= 24 &&
    bytes.readUInt32BE(0) === 0x89504e47 &&
    bytes.toString('ascii', 12, 16) === 'IHDR'
  )
    return { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  if (bytes.length >= 10 && bytes.toString('ascii', 0, 4) === 'GIF8')
    return { width: bytes.readUInt16LE(6), height: bytes.readUInt16LE(8) };
  if (bytes.length >= 4 && bytes[0] === 0xff && bytes[1] === 0xd8) {
    let at = 2;
    while (at + 9 < bytes.length && bytes[at] === 0xff) {
      const marker = bytes[at + 1] ?? 0;
      const length = bytes.readUInt16BE(at + 2);
      if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc)
        return { height: bytes.readUInt16BE(at + 5), width: bytes.readUInt16BE(at + 7) };
      at += 2 + length;
    }
  }
  return null;
}

interface AttachmentRef {
  id?: unknown;
  filename?: unknown;
  description?: unknown;
}

const invalid = (issues: Issue[]): BodyProblem => ({
  status: 400,
  code: 50035,
  message: 'Invalid Form Body',
  errors: toErrors(issues),
});

/**
 * Discord's checks on `attachments[]` of a message body: at most 10 entries (and files), each
 * with an `id` naming an uploaded file's `n` or one of the message's attachments, a filename of
 * 1 to 1024 characters and a description of at most 1024.
 */
function attachmentRefIssues(
  refs: AttachmentRef[],
  files: Upload[],
  existing: readonly APIAttachment[] | null,
): Issue[] {
  const issues: Issue[] = [];
  if (refs.length > MAX_ATTACHMENTS || files.length > MAX_ATTACHMENTS) {
    issues.push({
      path: ['attachments'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: `Must be ${MAX_ATTACHMENTS} or fewer in length.`,
    });
  }
  refs.forEach((ref, i) => {
    if (
      typeof ref !== 'object' ||
      ref === null ||
      (typeof ref.id !== 'string' && typeof ref.id !== 'number')
    ) {
      issues.push({
        path: ['attachments', i, 'id'],
        code: 'BASE_TYPE_REQUIRED',
        message: 'This field is required',
      });
      return;
    }
    if (
      ref.filename !== undefined &&
      ref.filename !== null &&
      (typeof ref.filename !== 'string' || ref.filename.length < 1 || ref.filename.length > 1024)
    )
      issues.push({
        path: ['attachments', i, 'filename'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 1024 in length.',
      });
    if (typeof ref.description === 'string' && ref.description.length > 1024)
      issues.push({
        path: ['attachments', i, 'description'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: 'Must be 1024 or fewer in length.',
      });
    const id = String(ref.id);
    const known = files.some((f) => f.ref === id) || (existing ?? []).some((a) => a.id === id);
    if (!known)
      issues.push({
        path: ['attachments', i, 'id'],
        code: 'ATTACHMENT_NOT_FOUND',
        message: 'Attachment data not found',
      });
  });
  return issues;
}

/**
 * The attachments a message has after a create (`existing` null) or an edit, as Discord
 * decides them: each uploaded file becomes an attachment (`attachments[]` entries whose `id`
 * is the file's `n` may rename it or give it a description); on an edit without
 * `attachments` the files are appended to the ones the message has, with `attachments` only
 * the listed ones stay (existing ones by their id, new ones by their `n`). Null when the body
 * changes nothing about attachments (an edit without files nor `attachments`).
 */
export function resolveAttachments(
  state: SandboxState,
  cdnBase: string,
  channelId: string,
  body: { attachments?: unknown },
  existing: readonly APIAttachment[] | null,
): { attachments: APIAttachment[] | null } | BodyProblem {
  const files = uploadsOf(body);
  const listed = body.attachments;
  if (listed !== undefined && listed !== null && !Array.isArray(listed))
    return invalid([
      {
        path: ['attachments'],
        code: 'LIST_TYPE_CONVERT',
        message: 'Only iterables may be used in a ListType',
      },
    ]);
  const refs = (Array.isArray(listed) ? listed : []) as AttachmentRef[];
  const issues = attachmentRefIssues(refs, files, existing);
  if (issues.length > 0) return invalid(issues);
  if (existing !== null && files.length === 0 && (listed === undefined || listed === null))
    return { attachments: null };

  const refOf = (id: string) => refs.find((r) => String(r.id) === id);
  const uploaded = files
    .filter((f) => existing === null || listed === undefined || listed === null || refOf(f.ref))
    .map((file) => {
      const ref = refOf(file.ref);
      const filename = typeof ref?.filename === 'string' ? ref.filename : file.filename;
      return store(
        state,
        cdnBase,
        channelId,
        file,
        filename,
        typeof ref?.description === 'string' ? ref.description : undefined,
      );
    });
  const kept =
    existing === null
      ? []
      : listed === undefined || listed === null
        ? [...existing]
        : existing.filter((a) => refOf(a.id));
  if (existing !== null) {
    const keptIds = new Set(kept.map((a) => a.id));
    state.dropAttachments(existing.filter((a) => !keptIds.has(a.id)).map((a) => a.id));
  }
  return { attachments: [...kept, ...uploaded] };
}

function store(
  state: SandboxState,
  cdnBase: string,
  channelId: string,
  file: Upload,
  filename: string,
  description: string | undefined,
): APIAttachment {
  const id = state.snowflake();
  const url = `${cdnBase}/attachments/${channelId}/${id}/${encodeURIComponent(filename)}`;
  const size = imageSize(file.bytes);
  state.keepAttachment(id, { bytes: file.bytes, content_type: file.contentType });
  return {
    id,
    filename,
    ...(description !== undefined ? { description } : {}),
    content_type: file.contentType,
    size: file.bytes.length,
    url,
    proxy_url: url,
    ...(size ? { width: size.width, height: size.height } : {}),
  };
}
