/** The Add a boost card: what it applies to, its target, multiplier and expiry; then the stored note. */
import { SelectField, TextField } from '../../ui/Field.tsx';
import { ChannelPicker } from '../shared/ChannelPicker.tsx';
import { MemberPicker, RolePicker } from '../shared/GuildPickers.tsx';
import { AddCard } from './AddCard.tsx';
import { BOOST_KINDS, localNow } from './boost-model.ts';
import type { AddBoostForm } from './useAddBoost.ts';

export function AddBoostCard({
  guildId,
  botInGuild,
  form,
}: {
  guildId: string;
  botInGuild: boolean;
  form: AddBoostForm;
}) {
  const { add, kind, targetId, setTargetId } = form;
  return (
    <>
      <AddCard
        titleId="add-boost-title"
        title="Add a boost"
        button={add.isPending ? 'Adding…' : 'Add boost'}
        busy={add.isPending}
        onAdd={() => add.mutate()}
      >
        <SelectField
          id="boost-kind"
          label="Applies to"
          value={kind}
          options={BOOST_KINDS}
          onChange={form.chooseKind}
        />
        {kind === 'user' ? (
          <MemberPicker
            key="member"
            id="boost-target"
            label="Member (empty: all users)"
            guildId={guildId}
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        {kind === 'channel' ? (
          <ChannelPicker
            key="channel"
            id="boost-target"
            label="Channel"
            guildId={guildId}
            botInGuild={botInGuild}
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        {kind === 'role' ? (
          <RolePicker
            key="role"
            id="boost-target"
            label="Role"
            guildId={guildId}
            value={targetId}
            onChange={setTargetId}
          />
        ) : null}
        <TextField
          id="boost-multiplier"
          label="Multiplier"
          type="number"
          min={0}
          step={0.1}
          value={form.multiplier}
          onChange={form.typeMultiplier}
        />
        <TextField
          id="boost-expires"
          label="Expires (optional)"
          type="datetime-local"
          min={localNow()}
          value={form.expires}
          onChange={form.setExpires}
        />
      </AddCard>
      {form.storedNote ? (
        <p className="alert alert-warning small" role="status">
          {form.storedNote}
        </p>
      ) : null}
    </>
  );
}
