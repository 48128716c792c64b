import type { RoleMenu } from '@spacecadet/contract';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { SavedMenuPost } from './MenuPostAction.tsx';
import { type FieldProblem, POSTED_WILL_UPDATE } from './role-menus-form.ts';
import type { MenuSave } from './useMenuSave.ts';

/** The editor's Save card: the button and its notes, the problems Save found, the API's refusal and the post action. */
export function MenuSaveCard({
  guildId,
  saved,
  botInGuild,
  dirty,
  save,
  shown,
  onSave,
}: {
  guildId: string;
  saved: RoleMenu | null;
  botInGuild: boolean;
  dirty: boolean;
  save: MenuSave;
  shown: readonly FieldProblem[];
  onSave: () => void;
}) {
  return (
    <div className="card menu-save">
      <div className="button-row">
        <button type="button" className="btn btn-primary" onClick={onSave} disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save'}
        </button>
        {save.isSuccess ? <output className="save-note">Saved</output> : null}
        {save.isSuccess && save.data?.posted ? (
          <span className="muted small">{POSTED_WILL_UPDATE}</span>
        ) : null}
        {!save.isSuccess && saved && dirty ? <span className="muted small">Unsaved changes</span> : null}
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
      {saved ? <SavedMenuPost guildId={guildId} menu={saved} botInGuild={botInGuild} dirty={dirty} /> : null}
    </div>
  );
}
