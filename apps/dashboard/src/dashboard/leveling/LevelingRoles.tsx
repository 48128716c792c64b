import type { LevelingRole } from '@spacecadet/contract';
import {
  LEVEL_ROLE_NAME_MAX,
  MAX_LEVEL_ROLES,
  normalizeLevelRequired,
  normalizeLevelRoleName,
} from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { TextField } from '../../ui/Field.tsx';
import { previewCall, UNDO_NOTE, useConfirm } from '../shared/ConfirmDialog.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { queryKeys } from '../shared/queries.ts';
import { AddCard } from './AddCard.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import {
  deleteRoleConfirm,
  LEVELING_FAILURES,
  levelStoredNote,
  levelTakenHint,
  nextFreeLevel,
  roleAtLevel,
  roleCapHint,
  useLeveling,
} from './leveling-model.ts';

const DEFAULT_ROLE_NAME = 'Level Reward';

export default function LevelingRolesPage() {
  return (
    <GuildPage
      title="Level reward roles"
      head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}
    >
      {(guildId) => <RolesScreen guildId={guildId} />}
    </GuildPage>
  );
}

/** The add form's state and the add, rename, image-role and delete calls, with their error. */
function useRoleEdits(guildId: string, leveling: ReturnType<typeof useLeveling>) {
  const queryClient = useQueryClient();
  const [problem, setProblem] = useState<string | null>(null);
  const [name, setName] = useState(DEFAULT_ROLE_NAME);
  const [level, setLevel] = useState('1');
  const [imageRole, setImageRole] = useState(false);
  // What the last added role's level was stored as, when that is not what was typed.
  const [storedNote, setStoredNote] = useState<string | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });
  const failing = (fallback: string) => ({
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, fallback)),
    onSuccess: () => reload(),
  });

  // Adding a role also forces leveling on.
  const add = useMutation({
    mutationFn: async () => {
      const role = await apiCall('createLevelingRole', {
        params: { guildId },
        body: {
          role_name: normalizeLevelRoleName(name),
          level_required: normalizeLevelRequired(level),
          is_image_role: imageRole,
        },
      });
      await apiCall('putLeveling', { params: { guildId }, body: { enabled: true } });
      return { role, typed: level };
    },
    ...failing(LEVELING_FAILURES.addRole),
    onSuccess: ({ role, typed }) => {
      setStoredNote(levelStoredNote(typed, role.level_required));
      // The form clears for the next role, offering the next free level.
      setName(DEFAULT_ROLE_NAME);
      setLevel(String(nextFreeLevel([...(leveling.data?.roles ?? []), role], role.level_required)));
      setImageRole(false);
      void reload();
    },
  });
  const update = useMutation({
    mutationFn: (vars: { id: number; body: { role_name?: string; is_image_role?: boolean } }) =>
      apiCall('updateLevelingRole', { params: { guildId, roleId: vars.id }, body: vars.body }),
    ...failing(LEVELING_FAILURES.updateRole),
  });
  const remove = useMutation({
    mutationFn: (id: number) => apiCall('deleteLevelingRole', { params: { guildId, roleId: id } }),
    ...failing(LEVELING_FAILURES.deleteRole),
  });
  const form = { name, setName, level, setLevel, imageRole, setImageRole, storedNote, setStoredNote };
  return { problem, setProblem, form, add, update, remove };
}

function RolesScreen({ guildId }: { guildId: string }) {
  const leveling = useLeveling(guildId);
  const guard = usePageGuard(guildId, leveling, {
    failure: (error) => errorText(error, LEVELING_FAILURES.loadRoles),
  });
  const { problem, setProblem, form, add, update, remove } = useRoleEdits(guildId, leveling);
  const confirmation = useConfirm();

  if (!guard.ready) return guard.view;
  const roles = [...guard.data.roles].sort((a, b) => a.level_required - b.level_required);
  // What the API would refuse with a 409, said before Add is pressed.
  const full = roles.length >= MAX_LEVEL_ROLES;
  const taken = roleAtLevel(roles, normalizeLevelRequired(form.level));
  const hint = full ? roleCapHint : taken ? levelTakenHint(taken) : null;

  return (
    <>
      {guard.banner}
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {confirmation.dialog}
      <AddCard
        titleId="add-role-title"
        title={
          <>
            Add a reward role <span className="muted small">Max {MAX_LEVEL_ROLES}</span>
          </>
        }
        button="Add role"
        busy={add.isPending}
        disabled={hint !== null}
        hint={hint}
        onAdd={() => add.mutate()}
      >
        <AddRoleFields form={form} />
      </AddCard>
      {form.storedNote ? (
        <p className="alert alert-warning small" role="status">
          {form.storedNote}
        </p>
      ) : null}
      <section className="card" aria-labelledby="roles-title">
        <h2 id="roles-title">
          Roles ({roles.length}/{MAX_LEVEL_ROLES})
        </h2>
        {roles.length === 0 ? <p className="muted">No roles yet</p> : null}
        <ul className="level-list">
          {roles.map((role) => (
            <RoleRow
              key={role.id}
              role={role}
              onRename={(roleName) =>
                update.mutate({ id: role.id, body: { role_name: normalizeLevelRoleName(roleName) } })
              }
              onImageRole={(value) => update.mutate({ id: role.id, body: { is_image_role: value } })}
              deleting={remove.isPending && remove.variables === role.id}
              onDelete={() =>
                confirmation.ask({
                  title: 'Delete this reward role?',
                  question: deleteRoleConfirm(role),
                  confirmLabel: 'Delete role',
                  preview: previewCall('previewLevelingRoleDelete', { guildId, roleId: role.id }),
                  undoNote: UNDO_NOTE,
                  onConfirm: () => remove.mutateAsync(role.id),
                })
              }
            />
          ))}
        </ul>
      </section>
    </>
  );
}

/** The add form's fields: the role's name, its level, and whether it is an image role. */
function AddRoleFields({ form }: { form: ReturnType<typeof useRoleEdits>['form'] }) {
  return (
    <>
      <TextField
        id="role-name"
        label="Role name"
        maxLength={LEVEL_ROLE_NAME_MAX}
        value={form.name}
        onChange={form.setName}
      />
      <TextField
        id="role-level"
        label="Level required"
        type="number"
        min={0}
        value={form.level}
        onChange={(value) => {
          form.setLevel(value);
          form.setStoredNote(null);
        }}
      />
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={form.imageRole}
          onChange={(event) => form.setImageRole(event.target.checked)}
        />
        Image role (attach files and embed links)
      </label>
    </>
  );
}

function RoleRow({
  role,
  onRename,
  onImageRole,
  deleting,
  onDelete,
}: {
  role: LevelingRole;
  onRename: (name: string) => void;
  onImageRole: (value: boolean) => void;
  deleting: boolean;
  onDelete: () => void;
}) {
  const [name, setName] = useState(role.role_name);
  return (
    <li className="level-item">
      <span className="level-badge">Lv {role.level_required}</span>
      <TextField
        id={`role-${role.id}-name`}
        label={`Name of the level ${role.level_required} role`}
        labelClassName="sr-only"
        maxLength={LEVEL_ROLE_NAME_MAX}
        value={name}
        onChange={setName}
        onBlur={() => name !== role.role_name && onRename(name)}
      />
      <span
        className={`badge ${role.role_id ? 'badge-beta' : 'badge-soon'}`}
        title={role.role_id ? 'The bot created this role in Discord' : 'Sync Roles creates it in Discord'}
      >
        {role.role_id ? 'created' : 'pending'}
      </span>
      <label className="checkbox-field">
        <input
          type="checkbox"
          checked={role.is_image_role}
          onChange={(event) => onImageRole(event.target.checked)}
        />
        Image role
      </label>
      <button
        type="button"
        className="btn btn-ghost btn-sm"
        disabled={deleting}
        onClick={onDelete}
        aria-label={`Delete ${role.role_name}`}
        title={
          role.holders === 0
            ? 'No member holds it yet'
            : `${role.holders} ${role.holders === 1 ? 'member holds' : 'members hold'} it`
        }
      >
        {deleting ? 'Deleting…' : 'Delete'}
      </button>
    </li>
  );
}
