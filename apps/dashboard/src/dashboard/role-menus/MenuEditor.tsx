import {
  type GuildRole,
  ROLE_MENU_DESCRIPTION_MAX,
  ROLE_MENU_TITLE_MAX,
  type RoleMenu,
  type RoleMenuList,
} from '@spacecadet/contract';
import { ROLE_MENU_COLOR } from '@spacecadet/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText, isApiError } from '../../lib/api-error.ts';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import { hexOf } from '../shared/DiscordMarkup.tsx';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild } from '../shared/GuildPage.tsx';
import { queryKeys } from '../shared/queries.ts';
import { MenuOptionsEditor } from './MenuOptionsEditor.tsx';
import { type FieldWithProblem, MenuPickFields } from './MenuPickFields.tsx';
import { SavedMenuPost } from './MenuPostAction.tsx';
import { RoleMenuPreview } from './RoleMenuPreview.tsx';
import {
  bodyFromDraft,
  draftFromMenu,
  emptyDraft,
  type FieldProblem,
  isDirty,
  layoutFromDraft,
  type MenuDraft,
  normalizeHex,
  POSTED_WILL_UPDATE,
  problemsByPath,
  validateDraft,
} from './role-menus-form.ts';

export const LEAVE_UNSAVED = 'Leave this menu without saving your changes?';

/**
 * A menu's editor (a new one when `saved` is null): its fields, its options and the live
 * preview. Save creates or replaces it; what the API refuses is shown at the field it names and
 * in the red box, and the edits stay. `onCreated` gets a new menu's id once it is saved.
 */
export function MenuEditor({
  guildId,
  saved,
  botInGuild,
  roles,
  onCreated,
  onBack,
}: {
  guildId: string;
  saved: RoleMenu | null;
  botInGuild: boolean;
  roles: ReadonlyMap<string, GuildRole>;
  onCreated: (menuId: string) => void;
  onBack: () => void;
}) {
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<MenuDraft>(() => (saved ? draftFromMenu(saved) : emptyDraft()));
  /** Save was pressed: from then on the problems follow the edits. */
  const [checked, setChecked] = useState(false);
  const found = useMemo(() => validateDraft(draft), [draft]);
  const save = useMutation({
    mutationFn: (body: ReturnType<typeof bodyFromDraft>) =>
      saved
        ? apiCall('updateRoleMenu', { params: { guildId, menuId: saved.id }, body })
        : apiCall('createRoleMenu', { params: { guildId }, body }),
    onSuccess: async (menu) => {
      // The list knows the menu at once (the editor of a new one reopens on its id).
      queryClient.setQueryData<RoleMenuList>(queryKeys.roleMenus(guildId), (list) =>
        list
          ? {
              menus: list.menus.some((item) => item.id === menu.id)
                ? list.menus.map((item) => (item.id === menu.id ? menu : item))
                : [...list.menus, menu],
            }
          : list,
      );
      if (!saved) onCreated(menu.id);
      await queryClient.invalidateQueries({ queryKey: queryKeys.roleMenus(guildId) });
    },
  });
  const refused: FieldProblem[] = save.isError && isApiError(save.error) ? [...save.error.issues] : [];
  const shown = checked ? found : [];
  const problems = problemsByPath([...refused, ...shown]);
  const dirty = isDirty(draft, saved);

  const confirmation = useConfirm();
  const update = (change: Partial<MenuDraft>) => {
    setDraft((current) => ({ ...current, ...change }));
    save.reset();
  };
  const onSave = () => {
    setChecked(true);
    if (found.length === 0) save.mutate(bodyFromDraft(draft));
  };
  const back = () => {
    if (!dirty || save.isSuccess) onBack();
    else
      confirmation.ask({
        title: 'Leave without saving?',
        question: LEAVE_UNSAVED,
        confirmLabel: 'Leave',
        undoNote: null,
        onConfirm: onBack,
      });
  };

  const field: FieldWithProblem = (path, content) => {
    const problem = problems.get(path);
    const problemId = `menu-${path}-problem`;
    return (
      <>
        {content(problem !== undefined, problem ? problemId : undefined)}
        {problem ? (
          <p id={problemId} className="field-problem" role="alert">
            {problem}
          </p>
        ) : null}
      </>
    );
  };

  return (
    <div className="menu-editor">
      {confirmation.dialog}
      <div className="button-row menu-editor-bar">
        <button type="button" className="btn btn-ghost btn-sm" onClick={back}>
          ← All menus
        </button>
        <h2 className="menu-editor-title">{saved ? `Edit “${saved.title}”` : 'New menu'}</h2>
      </div>
      {botInGuild ? null : <BotNotInGuild guildId={guildId} />}
      <div className="menu-editor-grid">
        <div className="menu-editor-form">
          <section className="card menu-fields" aria-labelledby="menu-message-title">
            <h2 id="menu-message-title">Message</h2>
            <div className="field">
              <label htmlFor="menu-title">Title</label>
              {field('title', (invalid, describedBy) => (
                <input
                  id="menu-title"
                  className="input"
                  value={draft.title}
                  maxLength={ROLE_MENU_TITLE_MAX}
                  placeholder="Pick your roles"
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy}
                  onChange={(event) => update({ title: event.target.value })}
                />
              ))}
            </div>
            <div className="field">
              <label htmlFor="menu-description">Description</label>
              {field('description', (invalid, describedBy) => (
                <textarea
                  id="menu-description"
                  className="textarea"
                  rows={4}
                  value={draft.description}
                  maxLength={ROLE_MENU_DESCRIPTION_MAX}
                  placeholder="Optional. Markdown works: **bold**, *italic*, <@&role id>."
                  aria-invalid={invalid || undefined}
                  aria-describedby={describedBy ?? 'menu-description-hint'}
                  onChange={(event) => update({ description: event.target.value })}
                />
              ))}
              <p id="menu-description-hint" className="muted small">
                Shown in the embed above the options, with Discord's Markdown.
              </p>
            </div>
            <div className="field">
              <label htmlFor="menu-color">
                Color <span className="muted small">(optional)</span>
              </label>
              <div className="color-inputs">
                <input
                  type="color"
                  className="color-swatch-input"
                  aria-label="Pick the embed color"
                  value={(normalizeHex(draft.color) ?? hexOf(ROLE_MENU_COLOR)).toLowerCase()}
                  onChange={(event) => update({ color: event.target.value.toUpperCase() })}
                />
                {field('color', (invalid, describedBy) => (
                  <input
                    id="menu-color"
                    className="input color-hex-input"
                    value={draft.color}
                    placeholder={`${hexOf(ROLE_MENU_COLOR).toUpperCase()} (default)`}
                    aria-invalid={invalid || undefined}
                    aria-describedby={describedBy}
                    spellCheck={false}
                    onChange={(event) => update({ color: event.target.value })}
                  />
                ))}
                {draft.color.trim() !== '' ? (
                  <button
                    type="button"
                    className="btn btn-ghost btn-sm"
                    onClick={() => update({ color: '' })}
                  >
                    Use default
                  </button>
                ) : null}
              </div>
            </div>
            {field('channel_id', (invalid) => (
              <ChannelPicker
                id="menu-channel"
                label="Channel"
                guildId={guildId}
                botInGuild={botInGuild}
                value={draft.channel_id}
                invalid={invalid}
                onChange={(value) => update({ channel_id: value })}
              />
            ))}
          </section>

          <MenuPickFields guildId={guildId} draft={draft} problems={problems} field={field} update={update} />

          <div className="card">
            <MenuOptionsEditor
              guildId={guildId}
              style={draft.style}
              options={draft.options}
              problems={problems}
              roles={roles}
              onChange={(options) => update({ options })}
            />
          </div>

          <div className="card menu-save">
            <div className="button-row">
              <button type="button" className="btn btn-primary" onClick={onSave} disabled={save.isPending}>
                {save.isPending ? 'Saving…' : 'Save'}
              </button>
              {save.isSuccess ? <output className="save-note">Saved</output> : null}
              {save.isSuccess && save.data?.posted ? (
                <span className="muted small">{POSTED_WILL_UPDATE}</span>
              ) : null}
              {!save.isSuccess && saved && dirty ? (
                <span className="muted small">Unsaved changes</span>
              ) : null}
            </div>
            {shown.length > 0 ? (
              <div className="alert alert-error" role="alert">
                <ul className="problem-list">
                  {shown.map((problem) => (
                    <li key={problem.path}>{problem.message}</li>
                  ))}
                </ul>
              </div>
            ) : null}
            <ErrorBox onDismiss={() => save.reset()}>{save.isError ? errorText(save.error) : null}</ErrorBox>
            {saved ? (
              <SavedMenuPost guildId={guildId} menu={saved} botInGuild={botInGuild} dirty={dirty} />
            ) : null}
          </div>
        </div>
        <div className="menu-editor-preview">
          <RoleMenuPreview menu={layoutFromDraft(draft, saved?.id ?? null)} roles={roles} />
        </div>
      </div>
    </div>
  );
}
