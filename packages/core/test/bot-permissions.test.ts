import { describe, expect, it } from 'vitest';
import {
  BOT_PERMISSION_BITS,
  botPermissionsFor,
  DEFAULT_BOT_PERMISSIONS,
  missingBotPermissions,
} from '../src/bot-permissions.ts';

describe('bot permissions per feature', () => {
  it("asks every server for the product's long-standing invite, and Manage Server for Onboarding", () => {
    // Manage Roles, View Channel, Send Messages, Embed Links, Attach Files, Read Message History,
    // and for reaction panels Add Reactions and Manage Messages.
    expect(DEFAULT_BOT_PERMISSIONS).toBe('268561472');
    expect(botPermissionsFor(['personality-roles', 'onboarding'])).toBe(
      String(
        BOT_PERMISSION_BITS.MANAGE_ROLES |
          BOT_PERMISSION_BITS.VIEW_CHANNEL |
          BOT_PERMISSION_BITS.SEND_MESSAGES |
          BOT_PERMISSION_BITS.EMBED_LINKS |
          BOT_PERMISSION_BITS.READ_MESSAGE_HISTORY |
          BOT_PERMISSION_BITS.MANAGE_GUILD,
      ),
    );
    expect(botPermissionsFor([])).toBe('0');
  });

  it('names what a feature lacks, nothing with Administrator', () => {
    expect(missingBotPermissions(DEFAULT_BOT_PERMISSIONS, 'onboarding')).toEqual(['Manage Server']);
    expect(missingBotPermissions('0', 'onboarding')).toEqual(['Manage Server', 'Manage Roles']);
    expect(missingBotPermissions(BOT_PERMISSION_BITS.ADMINISTRATOR, 'onboarding')).toEqual([]);
    expect(missingBotPermissions(DEFAULT_BOT_PERMISSIONS, 'leveling')).toEqual([]);
    expect(missingBotPermissions(DEFAULT_BOT_PERMISSIONS, 'reaction-roles')).toEqual([]);
    expect(missingBotPermissions('268553216', 'reaction-roles')).toEqual([
      'Add Reactions',
      'Manage Messages',
    ]);
  });
});
