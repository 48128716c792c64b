import {
  type APIEmbed,
  type APIMessage,
  type APIMessageTopLevelComponent,
  EmbedType,
  type MessageFlags,
} from 'discord-api-types/v10';
import { componentEmojiIssue } from '../component-emoji.ts';
import { clearChoices } from '../select-choices.ts';
import { uploadsOf } from './attachments.ts';
import { type Issue, toErrors } from './discord-errors.ts';
import type { BodyProblem, MessageBody } from './message-body-types.ts';
import { nonceIssues } from './message-nonce.ts';

export type { BodyProblem, Issue, MessageBody };

const EPHEMERAL = 64;

function maxLength(issues: Issue[], path: Array<string | number>, value: unknown, max: number): void {
  if (typeof value === 'string' && value.length > max) {
    issues.push({ path, code: 'BASE_TYPE_MAX_LENGTH', message: `Must be ${max} or fewer in length.` });
  }
}

function checkEmoji(issues: Issue[], path: Array<string | number>, emoji: unknown): void {
  if (emoji === undefined || emoji === null) return;
  const issue = componentEmojiIssue(emoji);
  if (issue)
    issues.push({ path: [...path, 'emoji', ...issue.path], code: issue.code, message: issue.message });
}

/**
 * One component of an action row at `cAt`: a custom id of 1 to 100 characters unique in the
 * message (`seen`), or a link's url; a button's label and emoji; a select's options and placeholder.
 */
function validateComponent(
  c: Record<string, unknown>,
  cAt: Array<string | number>,
  seen: Set<string>,
  issues: Issue[],
): void {
  const isLink = c.type === 2 && (c.style === 5 || c.style === 6);
  if (!isLink) {
    const id = c.custom_id;
    if (typeof id !== 'string' || id.length < 1 || id.length > 100) {
      issues.push({
        path: [...cAt, 'custom_id'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 100 in length.',
      });
    } else if (seen.has(id)) {
      issues.push({
        path: [...cAt, 'custom_id'],
        code: 'COMPONENT_CUSTOM_ID_DUPLICATED',
        message: 'Component custom id cannot be duplicated',
      });
    } else seen.add(id);
  } else if (c.style === 5 && typeof c.url !== 'string') {
    issues.push({ path: [...cAt, 'url'], code: 'BASE_TYPE_REQUIRED', message: 'This field is required' });
  }
  if (c.type === 2) {
    maxLength(issues, [...cAt, 'label'], c.label, 80);
    checkEmoji(issues, cAt, c.emoji);
  }
  if (c.type === 3) {
    const options = (c.options ?? []) as Array<Record<string, unknown>>;
    if (options.length < 1 || options.length > 25) {
      issues.push({
        path: [...cAt, 'options'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 25 in length.',
      });
    }
    options.forEach((o, k) => {
      maxLength(issues, [...cAt, 'options', k, 'label'], o.label, 100);
      maxLength(issues, [...cAt, 'options', k, 'value'], o.value, 100);
      maxLength(issues, [...cAt, 'options', k, 'description'], o.description, 100);
      checkEmoji(issues, [...cAt, 'options', k], o.emoji);
    });
  }
  if (c.type !== 2) maxLength(issues, [...cAt, 'placeholder'], c.placeholder, 150);
}

function validateComponents(components: unknown[], issues: Issue[]): void {
  if (components.length > 5) {
    issues.push({
      path: ['components'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: 'Must be 5 or fewer in length.',
    });
  }
  const seen = new Set<string>();
  components.forEach((raw, r) => {
    const row = raw as { type?: number; components?: unknown[] };
    const at = ['components', r];
    if (row.type !== 1) {
      issues.push({
        path: [...at, 'type'],
        code: 'UNION_TYPE_CHOICES',
        message: 'Value of field "type" must be one of (1,).',
      });
      return;
    }
    const children = (row.components ?? []) as Array<Record<string, unknown>>;
    if (children.length === 0 || children.length > 5) {
      issues.push({
        path: [...at, 'components'],
        code: 'BASE_TYPE_BAD_LENGTH',
        message: 'Must be between 1 and 5 in length.',
      });
    }
    const hasSelect = children.some((c) => c.type !== 2);
    if (hasSelect && children.length > 1) {
      issues.push({
        path: [...at, 'components'],
        code: 'COMPONENT_LAYOUT_WIDTH_EXCEEDED',
        message: 'The specified component exceeds the maximum width',
      });
    }
    children.forEach((c, i) => {
      validateComponent(c, [...at, 'components', i], seen, issues);
    });
  });
}

function validateEmbeds(embeds: APIEmbed[], issues: Issue[]): void {
  if (embeds.length > 10) {
    issues.push({
      path: ['embeds'],
      code: 'BASE_TYPE_MAX_LENGTH',
      message: 'Must be 10 or fewer in length.',
    });
  }
  embeds.forEach((e, i) => {
    maxLength(issues, ['embeds', i, 'title'], e.title, 256);
    maxLength(issues, ['embeds', i, 'description'], e.description, 4096);
    if ((e.fields?.length ?? 0) > 25) {
      issues.push({
        path: ['embeds', i, 'fields'],
        code: 'BASE_TYPE_MAX_LENGTH',
        message: 'Must be 25 or fewer in length.',
      });
    }
  });
}

/**
 * Discord's checks on a message body; `creating` also rejects an empty message, and
 * `channelMessage` (create message, in a channel or a DM) checks `nonce` and `enforce_nonce`.
 */
export function validateMessageBody(
  body: MessageBody,
  creating: boolean,
  channelMessage = false,
): BodyProblem | null {
  const issues: Issue[] = channelMessage ? nonceIssues(body) : [];
  maxLength(issues, ['content'], body.content, 2000);
  if (body.embeds) validateEmbeds(body.embeds, issues);
  if (body.components) validateComponents(body.components, issues);
  if (issues.length > 0)
    return { status: 400, code: 50035, message: 'Invalid Form Body', errors: toErrors(issues) };
  const empty =
    !body.content &&
    !(body.embeds?.length ?? 0) &&
    !(body.components?.length ?? 0) &&
    !(body.attachments?.length ?? 0) &&
    uploadsOf(body).length === 0;
  if (creating && empty) return { status: 400, code: 50006, message: 'Cannot send an empty message' };
  return null;
}

export const isEphemeral = (flags: number | null | undefined): boolean => ((flags ?? 0) & EPHEMERAL) !== 0;

type Component = { id?: number; components?: unknown[]; accessory?: unknown; component?: unknown };

/**
 * A copy of a message's components with Discord's numeric `id` on each one: components sent
 * without an id (or with 0) get the next free integer from 1, in order (a row before its
 * children), skipping ids the body already uses; ids sent are kept.
 */
export function withComponentIds(
  components: readonly APIMessageTopLevelComponent[],
): APIMessageTopLevelComponent[] {
  const copy = structuredClone(components) as unknown as Component[];
  const all: Component[] = [];
  const walk = (list: unknown[]) => {
    for (const raw of list) {
      if (typeof raw !== 'object' || raw === null) continue;
      const c = raw as Component;
      all.push(c);
      if (c.accessory) walk([c.accessory]);
      if (c.component) walk([c.component]);
      if (Array.isArray(c.components)) walk(c.components);
    }
  };
  walk(copy);
  // Discord answers a select with its bounds filled in (1 and 1 when not given).
  for (const c of all as Array<Component & { type?: number; min_values?: number; max_values?: number }>) {
    if (c.type !== undefined && c.type >= 3 && c.type <= 8 && c.type !== 4) {
      c.min_values ??= 1;
      c.max_values ??= 1;
    }
  }
  const used = new Set(all.map((c) => c.id).filter((id): id is number => typeof id === 'number' && id > 0));
  let next = 1;
  for (const c of all) {
    if (typeof c.id === 'number' && c.id > 0) continue;
    while (used.has(next)) next += 1;
    c.id = next;
    used.add(next);
  }
  return copy as unknown as APIMessageTopLevelComponent[];
}

/** Embeds as Discord stores them: each with its `type` ("rich" for a bot's embed). */
export function asPostedEmbeds(embeds: readonly APIEmbed[]): APIEmbed[] {
  return embeds.map((embed) => ({ type: EmbedType.Rich, ...structuredClone(embed) }));
}

/** Applies an edit body to a stored message in place. */
export function applyMessageEdit(message: APIMessage, body: MessageBody, nowIso: string): void {
  clearChoices(message);
  if (body.content !== undefined) message.content = body.content ?? '';
  if (body.embeds !== undefined) message.embeds = asPostedEmbeds(body.embeds ?? []);
  if (body.components !== undefined) message.components = withComponentIds(body.components ?? []);
  if (body.flags !== undefined && body.flags !== null) message.flags = body.flags as MessageFlags;
  message.edited_timestamp = nowIso;
}
