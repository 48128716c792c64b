/**
 * What the bot says when a member joins or leaves: the admin's welcome, DM and goodbye templates
 * filled in. One function for the dashboard's live preview and the worker's message, so what an
 * admin previews is what members get. Only the members greeted are ever pinged.
 */
import {
  DEFAULT_GOODBYE_MESSAGE,
  DEFAULT_WELCOME_DM_MESSAGE,
  DEFAULT_WELCOME_MESSAGE,
  WELCOME_MESSAGE_MAX,
} from '@spacecadet/contract';

/** Which template: the channel greeting, the DM, or the goodbye (each with its own default). */
export type WelcomeTemplateKind = 'welcome' | 'dm' | 'goodbye';

const DEFAULTS: Record<WelcomeTemplateKind, string> = {
  welcome: DEFAULT_WELCOME_MESSAGE,
  dm: DEFAULT_WELCOME_DM_MESSAGE,
  goodbye: DEFAULT_GOODBYE_MESSAGE,
};

export interface WelcomeMember {
  userId: string;
  /** The member's display name (global name or username). */
  username: string;
  /**
   * Names of the personality answers the member picked in Onboarding (`{answers}`); empty when
   * greeted at the join or for a goodbye.
   */
  answers?: readonly string[];
}

export interface WelcomeValues {
  /** The server's name. */
  server: string;
  /** Members of the server after this join (or leave). */
  memberCount: number;
}

export interface WelcomeMessage {
  content: string;
  allowed_mentions: { parse: never[]; users: string[] };
}

const PLACEHOLDER = /\{(user|username|server|member_count|answers)\}/g;
const numbers = new Intl.NumberFormat('en-US');

/** A list as people write it: "a", "a and b", "a, b and c". */
function spoken(items: readonly string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** Discord's 2,000 characters, cut with an ellipsis and never in the middle of a character. */
function fit(text: string): string {
  if (text.length <= WELCOME_MESSAGE_MAX) return text;
  let end = WELCOME_MESSAGE_MAX - 1;
  if (/[\uD800-\uDBFF]/.test(text.charAt(end - 1))) end -= 1;
  return `${text.slice(0, end)}…`;
}

/**
 * The message for one or more members (a raid's burst greets up to 20 in one message): `{user}`
 * mentions each, `{username}` names each, `{server}` is the server's name, `{member_count}` the
 * count after the join, `{answers}` the member's Onboarding picks (everyone's, in a burst).
 * Other braces stay as written. A template that comes out blank is the kind's default, as
 * Discord posts no empty message. Whatever the template says (@everyone, a role mention), only
 * the members named are pinged, and none for a goodbye (they left).
 */
export function renderWelcomeMessage(
  kind: WelcomeTemplateKind,
  template: string,
  members: readonly WelcomeMember[],
  values: WelcomeValues,
): WelcomeMessage {
  const fill = (source: string) =>
    source.replace(PLACEHOLDER, (_, name: string) => {
      switch (name) {
        case 'user':
          return spoken(members.map((member) => `<@${member.userId}>`));
        case 'username':
          return spoken(members.map((member) => member.username));
        case 'server':
          return values.server;
        case 'member_count':
          return numbers.format(values.memberCount);
        default:
          return spoken([...new Set(members.flatMap((member) => member.answers ?? []))]);
      }
    });
  const own = template.trim() === '' ? '' : fill(template);
  const content = fit(own.trim() === '' ? fill(DEFAULTS[kind]) : own);
  const users = kind === 'goodbye' ? [] : [...new Set(members.map((member) => member.userId))];
  return { content, allowed_mentions: { parse: [], users } };
}
