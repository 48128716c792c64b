import { describe, expect, it } from 'vitest';
import { MESSAGE_NONCE_MAX_LENGTH, type MessageNonceParts, messageNonce } from '../src/message-nonce.ts';

const guild = '300000000000000001';
const member = '200000000000000003';

describe('messageNonce', () => {
  it.each<[string, MessageNonceParts]>([
    ['a level-up', ['level-up', guild, member, 12]],
    ['a panel page replacing a message', ['menu-page', 42, '300000000000000014', 3, '1300000000000000000']],
    ['a first post (nothing replaced)', ['color-panel', guild, '300000000000000014', null]],
    ['long ids', ['x'.repeat(200), '9'.repeat(40), '9'.repeat(40)]],
  ])('gives %s the same nonce every time, within Discord’s 25 characters', (_name, parts) => {
    const nonce = messageNonce(...parts);
    expect(nonce).toBe(messageNonce(...parts));
    expect(nonce.length).toBe(MESSAGE_NONCE_MAX_LENGTH);
    expect(nonce).toMatch(/^[A-Za-z0-9_-]+$/);
  });

  it('gives different posts different nonces, however their parts split', () => {
    const posts: MessageNonceParts[] = [
      ['level-up', guild, member, 12],
      ['level-up', guild, member, 13],
      ['level-up', guild, '200000000000000004', 12],
      ['level-up', '300000000000000003', member, 12],
      ['overview', guild, member, 12],
      ['level-up', `${guild}${member}`, 12],
      ['level-up', guild, `${member}12`],
      ['color-panel', guild, '300000000000000014', null],
      ['color-panel', guild, '300000000000000014', 'null'],
    ];
    expect(new Set(posts.map((parts) => messageNonce(...parts))).size).toBe(posts.length);
  });
});
