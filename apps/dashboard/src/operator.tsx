import { getConfig } from './config.ts';
import type { OperatorInfo } from './runtime-config.ts';

/**
 * The operator of this deployment: their support and community links, privacy contact and name,
 * read at run time from `/config.js` (SUPPORT_URL, COMMUNITY_URL, PRIVACY_CONTACT, OPERATOR_NAME
 * on the dashboard server). Never a link of our own: unset, the pages say so.
 */
export function operatorInfo(): OperatorInfo {
  return getConfig().operator ?? {};
}

export const NOT_NAMED = {
  support: 'This deployment has not named a support server.',
  community: 'This deployment has not named a community server.',
  privacy: 'This deployment has not named a privacy contact.',
  operator: 'The operator of this deployment has not named themselves.',
} as const;

/** A NOT_NAMED sentence inside another one: lower-cased, without its full stop. */
export function asClause(sentence: string): string {
  return sentence.charAt(0).toLowerCase() + sentence.slice(1).replace(/\.$/, '');
}

const isEmail = (contact: string) => !/^https?:\/\//i.test(contact);

/** The privacy contact as a link (mailto: for an address), or the sentence saying there is none. */
export function PrivacyContact() {
  const contact = operatorInfo().privacyContact;
  if (!contact) return <em className="not-named">{NOT_NAMED.privacy}</em>;
  return <a href={isEmail(contact) ? `mailto:${contact}` : contact}>{contact}</a>;
}

/** The operator's name, or a phrase standing for them when they have not named themselves. */
export function operatorLabel(): string {
  return operatorInfo().name ?? 'the operator of this deployment';
}
