import type { ReactionRolesState } from '@spacecadet/contract';
import { useMutation } from '@tanstack/react-query';
import { apiCall } from '../../lib/api.ts';
import { errorText } from '../../lib/api-error.ts';
import { ErrorBox } from '../shared/ErrorBox.tsx';
import { BotNotInGuild } from '../shared/GuildPage.tsx';
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import { useGuildJob } from '../shared/jobs/useGuildJob.ts';
import { queryKeys } from '../shared/queries.ts';
import {
  listsWithoutChannel,
  NOTHING_TO_POST,
  postableLists,
  ROLE_LISTS,
  UNSAVED_POST_NOTE,
} from './reaction-roles-form.ts';

const HINT_ID = 'reaction-panels-hint';

/**
 * Post / Update Panels: one job posts (or edits, re-posts, moves) the panel of every saved list
 * with rows and a channel. Its progress, summary and warnings show here; the page reloads after.
 */
export function PanelActions({
  guildId,
  saved,
  botInGuild,
  dirty,
}: {
  guildId: string;
  saved: ReactionRolesState;
  botInGuild: boolean;
  /** The editor holds changes not saved yet (the job posts the saved lists). */
  dirty: boolean;
}) {
  const tracker = useGuildJob(queryKeys.reactionRoles(guildId));
  const post = useMutation({
    mutationFn: () => apiCall('postReactionPanels', { params: { guildId } }),
    onSuccess: (accepted) => tracker.track(accepted.job_id),
  });
  const job = tracker.job;
  const warnings = jobResultOf(job)?.warnings ?? [];
  const postable = postableLists(saved);
  const skipped = listsWithoutChannel(saved);
  const reason = !botInGuild ? null : postable.length === 0 ? NOTHING_TO_POST : null;
  const busy = post.isPending || tracker.running;
  const titleOf = (list: string) => ROLE_LISTS.find((item) => item.name === list)?.title ?? list;

  return (
    <section className="card actions-card" aria-labelledby="panels-actions-title">
      <div className="actions-row">
        <div>
          <h2 id="panels-actions-title">Panels in Discord</h2>
          <p className="muted small">
            Each list with rows and a Panel Channel gets a message members react to; posting again updates it
            in place.
          </p>
        </div>
        <button
          type="button"
          className="btn btn-primary"
          disabled={busy || !botInGuild || postable.length === 0}
          aria-describedby={reason || !botInGuild ? HINT_ID : undefined}
          onClick={() => post.mutate()}
        >
          Post / Update Panels
        </button>
      </div>
      {botInGuild ? null : <BotNotInGuild id={HINT_ID} guildId={guildId} />}
      {reason ? (
        <p id={HINT_ID} className="muted small">
          {reason}
        </p>
      ) : null}
      {postable.length > 0 && skipped.length > 0 ? (
        <p className="muted small">
          {skipped.map(titleOf).join(' and ')} has no Panel Channel yet: its panel is skipped.
        </p>
      ) : null}
      {dirty && postable.length > 0 ? <p className="muted small">{UNSAVED_POST_NOTE}</p> : null}
      {job ? <JobProgress job={job} /> : null}
      <JobWarnings warnings={warnings} />
      <ErrorBox onDismiss={() => post.reset()}>{post.isError ? errorText(post.error) : null}</ErrorBox>
    </section>
  );
}
