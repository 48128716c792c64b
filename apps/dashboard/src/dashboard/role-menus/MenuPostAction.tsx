import type { RoleMenu } from '@spacecadet/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import { NO_CHANNEL_NOTE } from './role-menus-form.ts';

/**
 * Post / Update of one saved menu: one job (role-menus.post) posts it, edits it in place,
 * re-posts a deleted message or moves it to a new channel. Its progress, summary and warnings
 * show under the button; the list reloads after.
 */
export function useMenuPost(guildId: string, menu: RoleMenu, botInGuild: boolean) {
  const tracker = useGuildJob(queryKeys.roleMenus(guildId));
  const post = useMutation({
    mutationFn: () => apiCall('postRoleMenu', { params: { guildId, menuId: menu.id } }),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });
  const reason = !botInGuild ? null : menu.channel_id === null ? NO_CHANNEL_NOTE : null;
  return {
    label: menu.posted ? 'Update' : 'Post',
    busy: post.isPending || tracker.running,
    disabled: post.isPending || tracker.running || !botInGuild || menu.channel_id === null,
    reason,
    start: () => post.mutate(),
    status: (
      <>
        {tracker.job ? <JobProgress job={tracker.job} /> : null}
        <JobWarnings warnings={jobResultOf(tracker.job)?.warnings ?? []} />
        <ErrorBox onDismiss={() => post.reset()}>{post.isError ? errorText(post.error) : null}</ErrorBox>
      </>
    ),
  };
}
