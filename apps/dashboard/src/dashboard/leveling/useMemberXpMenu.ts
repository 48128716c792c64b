import { MEMBER_XP_MAX } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { errorText, fieldIssue } from '../../lib/api-error.ts';
import { queryKeys } from '../shared/queries.ts';

/** The state and mutations behind a leaderboard row's menu: open/closed, typed XP, set and reset. */

export const SET_XP_FAILURE = 'Failed to set XP';
export const RESET_XP_FAILURE = 'Failed to reset XP';

/** What is wrong with the typed XP before it is sent, or null when it can be sent. */
function typedXpProblem(typed: string): string | null {
  const n = Number(typed.trim());
  return typed.trim() === '' || !Number.isInteger(n) || n < 0
    ? 'XP is a whole number of at least 0.'
    : n > MEMBER_XP_MAX
      ? `XP is at most ${MEMBER_XP_MAX.toLocaleString('en-US')}.`
      : null;
}

/**
 * Setting or resetting a member's XP; either closes the menu and reloads the leaderboard and the
 * leveling data (reward holders change).
 */
export function useMemberXpMenu({ guildId, userId, xp }: { guildId: string; userId: string; xp: number }) {
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [typed, setTyped] = useState(String(xp));
  const panelId = useId();
  const button = useRef<HTMLButtonElement>(null);
  const input = useRef<HTMLInputElement>(null);
  // Opening moves the keyboard into the panel; closing (Escape, or a change made) brings it back
  // to the row's button instead of dropping it on the page.
  const close = () => {
    setOpen(false);
    button.current?.focus();
  };
  useEffect(() => {
    if (!open) return;
    input.current?.focus();
    input.current?.select();
  }, [open]);
  const reload = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: queryKeys.leaderboard(guildId) }),
      queryClient.invalidateQueries({ queryKey: queryKeys.leveling(guildId) }),
    ]);
  const set = useMutation({
    mutationFn: () =>
      apiCall('setMemberXp', { params: { guildId, userId }, body: { xp: Number(typed.trim()) } }),
    onSuccess: async () => {
      close();
      await reload();
    },
  });
  const reset = useMutation({
    mutationFn: () => apiCall('resetMemberXp', { params: { guildId, userId } }),
    onSuccess: async () => {
      close();
      await reload();
    },
  });
  const toggle = () => {
    setOpen((current) => !current);
    setTyped(String(xp));
    set.reset();
    reset.reset();
  };
  const problem = set.isError
    ? (fieldIssue(set.error, 'xp') ?? errorText(set.error, SET_XP_FAILURE))
    : reset.isError
      ? errorText(reset.error, RESET_XP_FAILURE)
      : null;
  return {
    open,
    toggle,
    close,
    typed,
    setTyped,
    panelId,
    button,
    input,
    set,
    reset,
    local: typedXpProblem(typed),
    problem,
    busy: set.isPending || reset.isPending,
  };
}

export type MemberXpMenu = ReturnType<typeof useMemberXpMenu>;
