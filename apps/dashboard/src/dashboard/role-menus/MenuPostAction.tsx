import type { RoleMenu } from '@spacecadet/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys, useChannels } from '../shared/queries.ts';
import { menuLocationText, NO_CHANNEL_NOTE, UNSAVED_POST_NOTE } from './role-menus-form.ts';

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

/** Post / Update of the saved menu, under Save. */
export function SavedMenuPost({
  guildId,
  menu,
  botInGuild,
  dirty,
}: {
  guildId: string;
  menu: RoleMenu;
  botInGuild: boolean;
  dirty: boolean;
}) {
  const post = useMenuPost(guildId, menu, botInGuild);
  const channels = useChannels(guildId, botInGuild);
  return (
    <div className="menu-post">
      <div className="button-row">
        <button
          type="button"
          className="btn btn-secondary"
          disabled={post.disabled}
          aria-describedby={post.reason ? 'menu-post-reason' : undefined}
          onClick={post.start}
        >
          {post.busy ? `${post.label}…` : `${post.label} in Discord`}
        </button>
        <span className={menu.posted ? 'small menu-posted is-posted' : 'small menu-posted'}>
          {menuLocationText(menu, channels.data?.channels ?? [])}
        </span>
      </div>
      {post.reason ? (
        <p id="menu-post-reason" className="muted small">
          {post.reason}
        </p>
      ) : null}
      {dirty ? <p className="muted small">{UNSAVED_POST_NOTE}</p> : null}
      {post.status}
    </div>
  );
}
