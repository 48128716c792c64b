/** The Reaction Roles editor's draft: the two lists, the raw JSON text, what is wrong with them, and Save. */
import type { ReactionRolesState } from '@spacecadet/contract';
import { MESSAGES } from '@spacecadet/contract';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { apiCall } from '../../lib/api.ts';
import { isApiError } from '../../lib/api-error.ts';
import { queryKeys } from '../shared/queries.ts';
import {
  emojiProblems,
  entriesFromRows,
  listsFromJson,
  type RoleListName,
  type RoleRow,
  type RowProblem,
  refusedFields,
  rowsFromEntries,
  validateReactionRoles,
} from './reaction-roles-form.ts';

export function useReactionRolesDraft(guildId: string, saved: ReactionRolesState) {
  const queryClient = useQueryClient();
  const [lists, setLists] = useState<Record<RoleListName, RoleRow[]>>(() => ({
    color_roles: rowsFromEntries(saved.color_roles),
    personality_roles: rowsFromEntries(saved.personality_roles),
  }));
  const [jsonText, setJsonText] = useState<string | null>(null);
  /** Save was pressed: from then on the problems list follows the edits. */
  const [checked, setChecked] = useState(false);
  const [jsonProblem, setJsonProblem] = useState<string | null>(null);
  /** Save was pressed while the raw JSON did not parse. */
  const [blocked, setBlocked] = useState(false);
  // Checked as the admin types, with the API's own words: typed emojis at once, the rest
  // once Save was pressed.
  const found = useMemo(() => validateReactionRoles(lists), [lists]);
  const live = useMemo(() => emojiProblems(found, lists), [found, lists]);
  const problems: readonly RowProblem[] = checked ? found : [];
  const save = useMutation({
    mutationFn: () =>
      apiCall('putReactionRoles', {
        params: { guildId },
        body: {
          color_roles: entriesFromRows(lists.color_roles),
          personality_roles: entriesFromRows(lists.personality_roles),
        },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: queryKeys.reactionRoles(guildId) }),
  });
  const refused = refusedFields(save.isError && isApiError(save.error) ? save.error.issues : []);
  const dirty =
    JSON.stringify(entriesFromRows(lists.color_roles)) !== JSON.stringify(saved.color_roles) ||
    JSON.stringify(entriesFromRows(lists.personality_roles)) !== JSON.stringify(saved.personality_roles);

  const updateList = (name: RoleListName, rows: RoleRow[]) => {
    setLists((current) => ({ ...current, [name]: rows }));
    setJsonText(null);
    setJsonProblem(null);
    setBlocked(false);
    save.reset();
  };
  const onJsonChange = (text: string) => {
    setJsonText(text);
    save.reset();
    const parsed = listsFromJson(text);
    if (parsed) {
      setLists(parsed);
      setJsonProblem(null);
      setBlocked(false);
    } else {
      setJsonProblem(MESSAGES.invalidJson);
    }
  };
  const onSave = () => {
    if (jsonProblem) {
      setBlocked(true);
      return;
    }
    setChecked(true);
    if (found.length === 0) save.mutate();
  };

  return {
    lists,
    jsonText,
    jsonProblem,
    blocked,
    live,
    problems,
    save,
    refused,
    dirty,
    updateList,
    onJsonChange,
    onSave,
  };
}
