/** One option of a question in the editor: label, emoji, role, the channels it opens, move and remove. */
import type { GuildRole } from '@spacecadet/contract';
import { ChannelMultiPicker } from '../shared/MultiPickers.tsx';
import { OptionActions } from '../shared/OptionActions.tsx';
import { CREATE_ROLE, KEEP_MY_ROLE, type OptionDraft } from './question-editor-model.ts';

export function QuestionOptionRow({
  guildId,
  botInGuild,
  option,
  index,
  count,
  roles,
  onChange,
  onMove,
  onRemove,
}: {
  guildId: string;
  botInGuild: boolean;
  option: OptionDraft;
  index: number;
  count: number;
  /** The roles an option may give (not @everyone, not an integration's). */
  roles: readonly GuildRole[];
  onChange: (option: OptionDraft) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const number = index + 1;
  const id = (field: string) => `question-option-${option.key}-${field}`;
  const sr = <span className="sr-only"> (option {number})</span>;
  // A stored role the list does not hold (roles still loading, or gone): still shown by its id.
  const listed = option.roleId === '' || roles.some((role) => role.id === option.roleId);
  return (
    <li className="question-option">
      <span className="role-row-number" aria-hidden="true">
        {number}
      </span>
      <div className="field question-option-label">
        <label htmlFor={id('label')} className="small">
          Label{sr}
        </label>
        <input
          id={id('label')}
          className="input"
          value={option.label}
          placeholder="What members see"
          onChange={(event) => onChange({ ...option, label: event.target.value })}
        />
      </div>
      <div className="field question-option-emoji">
        <label htmlFor={id('emoji')} className="small">
          Emoji{sr}
        </label>
        <input
          id={id('emoji')}
          className="input"
          value={option.emoji}
          placeholder="Optional"
          onChange={(event) => onChange({ ...option, emoji: event.target.value })}
        />
      </div>
      <div className="field question-option-role">
        <label htmlFor={id('role')} className="small">
          Role{sr}
        </label>
        <select
          id={id('role')}
          className="input"
          value={option.roleId}
          onChange={(event) => onChange({ ...option, roleId: event.target.value })}
        >
          <option value="">{option.roleCreated ? KEEP_MY_ROLE : CREATE_ROLE}</option>
          {roles.map((role) => (
            <option key={role.id} value={role.id}>
              @{role.name}
            </option>
          ))}
          {listed ? null : <option value={option.roleId}>Role {option.roleId}</option>}
        </select>
      </div>
      <div className="question-option-channels">
        <ChannelMultiPicker
          id={id('channels')}
          label={`Channels it opens (option ${number})`}
          hint="Members who pick it can see these channels."
          guildId={guildId}
          botInGuild={botInGuild}
          value={option.channelIds}
          onChange={(channelIds) => onChange({ ...option, channelIds })}
        />
      </div>
      <OptionActions number={number} last={count} onMove={onMove} onRemove={onRemove} />
    </li>
  );
}
