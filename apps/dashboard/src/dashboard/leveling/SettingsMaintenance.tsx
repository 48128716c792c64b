/** The settings page's Maintenance card: its buttons, what the last one did, the running job. */
import { JobProgress } from '../shared/jobs/JobProgress.tsx';
import { JobWarnings } from '../shared/jobs/JobWarnings.tsx';
import { jobResultOf } from '../shared/jobs/job-model.ts';
import type { LevelingMaintenance } from './useLevelingMaintenance.ts';

export function SettingsMaintenance({
  maintenance,
  saving,
  done,
}: {
  maintenance: LevelingMaintenance;
  /** A Save is under way (the resets wait for it). */
  saving: boolean;
  done: string | null;
}) {
  const { actions, tracker, jobBusy, resetting } = maintenance;
  return (
    <section className="card form-card" aria-label="Maintenance">
      <div className="button-row">
        {actions.map(({ label, busyLabel, danger, pending, run }) => (
          <button
            key={label}
            type="button"
            className={danger ? 'btn btn-danger' : 'btn btn-secondary'}
            disabled={danger ? resetting || saving : jobBusy}
            onClick={run}
          >
            {pending ? busyLabel : label}
          </button>
        ))}
        {done ? <output className="save-note">{done}</output> : null}
      </div>
      {tracker.job ? (
        <>
          <JobProgress job={tracker.job} />
          <JobWarnings warnings={jobResultOf(tracker.job)?.warnings ?? []} />
        </>
      ) : null}
    </section>
  );
}
