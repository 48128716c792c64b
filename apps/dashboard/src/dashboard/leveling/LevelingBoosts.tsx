/** The XP boosts page: the Add a boost card and the Boosts list (their parts live beside it). */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import '../../styles/leveling-boosts.css';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { GuildPage, usePageGuard } from '../shared/GuildPage.tsx';
import { useGuildRoles } from '../shared/guild-lookups.ts';
import { queryKeys, useBotInGuild, useChannels } from '../shared/queries.ts';
import { AddBoostCard } from './AddBoostCard.tsx';
import { BoostList, usePruneLeavers } from './BoostList.tsx';
import { LevelingNav } from './LevelingNav.tsx';
import { LEVELING_FAILURES, useLeveling } from './leveling-model.ts';
import { useAddBoost } from './useAddBoost.ts';

export {
  ADD_CHANNEL_BOOST_FAILURE,
  BOOST_RULE,
  boostExpiryLabel,
  boostTargetLabel,
  isBoostExpired,
  PRUNE_FAILURE,
} from './boost-model.ts';

export default function LevelingBoostsPage() {
  return (
    <GuildPage title="XP boosts" head={(guildId) => (guildId ? <LevelingNav guildId={guildId} /> : null)}>
      {(guildId) => <BoostsScreen guildId={guildId} />}
    </GuildPage>
  );
}

function BoostsScreen({ guildId }: { guildId: string }) {
  const queryClient = useQueryClient();
  const leveling = useLeveling(guildId);
  const guard = usePageGuard(guildId, leveling, {
    failure: (error) => errorText(error, LEVELING_FAILURES.loadBoosts),
  });
  const roles = useGuildRoles(guildId);
  const inGuild = useBotInGuild(guildId);
  const botInGuild = inGuild.data === true;
  const channels = useChannels(guildId, botInGuild);
  const [problem, setProblem] = useState<string | null>(null);
  const reload = () => queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) });
  const prune = usePruneLeavers(guildId, setProblem);
  const addForm = useAddBoost({ guildId, setProblem, reload });
  const remove = useMutation({
    mutationFn: (id: number) => apiCall('deleteBoost', { params: { guildId, boostId: id } }),
    onMutate: () => setProblem(null),
    onError: (error: unknown) => setProblem(errorText(error, LEVELING_FAILURES.deleteBoost)),
    onSuccess: () => reload(),
  });

  if (!guard.ready) return guard.view;
  return (
    <>
      {guard.banner}
      <ErrorBox onDismiss={() => setProblem(null)}>{problem}</ErrorBox>
      {prune.dialog}
      <AddBoostCard guildId={guildId} botInGuild={botInGuild} form={addForm} />
      <BoostList
        guildId={guildId}
        boosts={guard.data.boosts}
        roles={roles.data?.roles ?? []}
        channels={channels.data?.channels ?? []}
        prune={prune}
        onRemove={(boostId) => remove.mutate(boostId)}
      />
    </>
  );
}
