import type { RoleMenu } from '@spacecadet/contract';
import { describe, expect, it } from 'vitest';
import { bodyFromDraft, draftFromMenu } from './role-menus-form.ts';

const TRIAL: RoleMenu = {
  id: '00000000-0000-4000-8000-000000000001',
  title: 'Trial',
  description: '',
  color: null,
  channel_id: '300000000000000012',
  style: 'buttons',
  mode: 'normal',
  max_roles: null,
  required_role_id: null,
  options: [
    { role_id: '300000000000000021', label: 'For a day', expires_after_s: 86_400 },
    { role_id: '300000000000000022', label: 'For good' },
  ],
  posted: null,
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
  updated_by: null,
};

describe('the role menu editor’s draft', () => {
  it('keeps a temporary option’s expires_after_s through an edit and save', () => {
    expect(bodyFromDraft(draftFromMenu(TRIAL)).options).toEqual([
      { role_id: '300000000000000021', label: 'For a day', expires_after_s: 86_400 },
      { role_id: '300000000000000022', label: 'For good' },
    ]);
  });

  it('leaves the lifetime out for reactions, which hold a role as long as the reaction stays', () => {
    const draft = draftFromMenu({ ...TRIAL, style: 'reactions' });
    expect(bodyFromDraft(draft).options.every((option) => !('expires_after_s' in option))).toBe(true);
  });
});
