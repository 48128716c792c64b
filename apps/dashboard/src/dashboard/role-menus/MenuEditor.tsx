import type { GuildRole, RoleMenu } from '@spacecadet/contract';
import { useMemo, useState } from 'react';
import { isApiError } from '../../lib/api-error.ts';
import { useConfirm } from '../shared/ConfirmDialog.tsx';
import { BotNotInGuild } from '../shared/GuildPage.tsx';
import { MenuMessageFields } from './MenuMessageFields.tsx';
import { MenuOptionsEditor } from './MenuOptionsEditor.tsx';
import { type FieldWithProblem, MenuPickFields } from './MenuPickFields.tsx';
import { MenuSaveCard } from './MenuSaveCard.tsx';
import { RoleMenuPreview } from './RoleMenuPreview.tsx';
import {
  bodyFromDraft,
  draftFromMenu,
  emptyDraft,
  type FieldProblem,
  isDirty,
  layoutFromDraft,
  type MenuDraft,
  problemsByPath,
  validateDraft,
} from './role-menus-form.ts';
import { useMenuSave } from './useMenuSave.ts';

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
  const [draft, setDraft] = useState<MenuDraft>(() => (saved ? draftFromMenu(saved) : emptyDraft()));
  /** Save was pressed: from then on the problems follow the edits. */
  const [checked, setChecked] = useState(false);
  const found = useMemo(() => validateDraft(draft), [draft]);
  const save = useMenuSave(guildId, saved, onCreated);
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

  const field = fieldWithProblem(problems);

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
          <MenuMessageFields
            guildId={guildId}
            botInGuild={botInGuild}
            draft={draft}
            field={field}
            update={update}
          />

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

          <MenuSaveCard
            guildId={guildId}
            saved={saved}
            botInGuild={botInGuild}
            dirty={dirty}
            save={save}
            shown={shown}
            onSave={onSave}
          />
        </div>
        <div className="menu-editor-preview">
          <RoleMenuPreview menu={layoutFromDraft(draft, saved?.id ?? null)} roles={roles} />
        </div>
      </div>
    </div>
  );
}

/** Shows a field with the refusal of its path under it (`menu-<path>-problem`, the field marked invalid). */
function fieldWithProblem(problems: ReadonlyMap<string, string>): FieldWithProblem {
  return (path, content) => {
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
}
