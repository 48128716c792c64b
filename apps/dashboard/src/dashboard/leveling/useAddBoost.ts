/** The Add a boost form's state and its Add (which also turns leveling on). */
import type { Boost } from '@spacecadet/contract';
import { normalizeBoostMultiplier } from '@spacecadet/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ADD_CHANNEL_BOOST_FAILURE, type BoostKind, DEFAULT_MULTIPLIER, isoOrNull } from './boost-model.ts';
import { boostStoredNote, LEVELING_FAILURES } from './leveling-model.ts';

export function useAddBoost({
  guildId,
  setProblem,
  reload,
}: {
  guildId: string;
  setProblem: (problem: string | null) => void;
  reload: () => Promise<void>;
}) {
  // What the last added boost was stored as, when that is not what was typed.
  const [storedNote, setStoredNote] = useState<string | null>(null);
  const [kind, setKind] = useState<BoostKind>('server');
  const [multiplier, setMultiplier] = useState(DEFAULT_MULTIPLIER);
  const [targetId, setTargetId] = useState('');
  const [expires, setExpires] = useState('');

  // Adding a boost also forces leveling on.
  const add = useMutation({
    mutationFn: async () => {
      const typed = multiplier;
      const common = { multiplier: normalizeBoostMultiplier(typed), expires_at: isoOrNull(expires) };
      let boost: Boost;
      if (kind === 'role') {
        boost = await apiCall('createRoleBoost', {
          params: { guildId },
          body: { ...common, role_id: targetId.trim() },
        });
      } else if (kind === 'channel') {
        boost = await apiCall('createChannelBoost', {
          params: { guildId },
          body: { ...common, channel_id: targetId.trim() },
        });
      } else {
        const userId = kind === 'user' && targetId.trim() !== '' ? targetId.trim() : null;
        boost = await apiCall('createBoost', { params: { guildId }, body: { ...common, user_id: userId } });
      }
      await apiCall('putLeveling', { params: { guildId }, body: { enabled: true } });
      return { typed, boost };
    },
    onMutate: () => {
      setProblem(null);
      setStoredNote(null);
    },
    onError: (error: unknown) =>
      setProblem(
        errorText(
          error,
          kind === 'role'
            ? LEVELING_FAILURES.addRoleBoost
            : kind === 'channel'
              ? ADD_CHANNEL_BOOST_FAILURE
              : LEVELING_FAILURES.addBoost,
        ),
      ),
    onSuccess: ({ typed, boost }) => {
      setStoredNote(boostStoredNote(typed, boost.multiplier));
      // The kind stays: adding several boosts of one kind is the common case.
      setTargetId('');
      setMultiplier(DEFAULT_MULTIPLIER);
      setExpires('');
      return reload();
    },
  });

  return {
    add,
    storedNote,
    kind,
    /** A new kind starts with no target. */
    chooseKind: (next: BoostKind) => {
      setKind(next);
      setTargetId('');
    },
    multiplier,
    /** A new multiplier drops the last stored note. */
    typeMultiplier: (value: string) => {
      setMultiplier(value);
      setStoredNote(null);
    },
    targetId,
    setTargetId,
    expires,
    setExpires,
  };
}

export type AddBoostForm = ReturnType<typeof useAddBoost>;
