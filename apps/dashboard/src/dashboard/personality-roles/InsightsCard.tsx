/**
 * Insights: per question, how many members hold each answer now (a bar chart, and the same
 * figures as a table for screen readers), picks and drops in the period, XP per holder and how
 * many new members stayed 7 days. Counted by the API from recorded answers: no Discord request.
 */
import { useId, useState } from 'react';
import { errorText } from '../../lib/api-error.ts';
import { PERSONALITY_FAILURES } from './personality-model.ts';
import { INSIGHT_DAYS, type InsightQuestion, insightDetail, stillHereText } from './question-editor-model.ts';
import { useInsights } from './useQuestionActions.ts';

export const NO_ANSWERS_YET = 'Nobody has answered a question yet.';

export function InsightsCard({ guildId }: { guildId: string }) {
  const [days, setDays] = useState<number>(30);
  const [asTable, setAsTable] = useState(false);
  const insights = useInsights(guildId, days);
  const questions = insights.data?.questions ?? [];
  // A question nobody holds nor picked in the period says nothing as a chart: named in one line.
  const answered = (question: InsightQuestion) =>
    question.answered > 0 || question.options.some((option) => option.picked > 0 || option.unpicked > 0);
  const shown = questions.filter(answered);
  const quiet = questions.filter((question) => !answered(question));
  return (
    <section className="card insights-card" aria-labelledby="insights-title" aria-busy={insights.isFetching}>
      <div className="role-list-head insights-head">
        <h2 id="insights-title">Insights</h2>
        <div className="insights-controls">
          <label htmlFor="insights-days" className="small">
            Period
          </label>
          <select
            id="insights-days"
            className="input"
            value={days}
            onChange={(event) => setDays(Number(event.target.value))}
          >
            {INSIGHT_DAYS.map((choice) => (
              <option key={choice} value={choice}>
                Last {choice} days
              </option>
            ))}
          </select>
          <button
            type="button"
            className="btn btn-ghost btn-sm"
            aria-pressed={asTable}
            onClick={() => setAsTable(!asTable)}
          >
            Show as table
          </button>
        </div>
      </div>
      {insights.isPending ? (
        <p className="muted" role="status">
          Loading insights…
        </p>
      ) : insights.isError ? (
        <p className="role-row-problem" role="alert">
          {errorText(insights.error, PERSONALITY_FAILURES.insights)}
        </p>
      ) : shown.length === 0 ? (
        <p className="muted">{NO_ANSWERS_YET}</p>
      ) : (
        <>
          {shown.map((question) => (
            <QuestionInsights key={question.question_id} question={question} days={days} asTable={asTable} />
          ))}
          {quiet.length > 0 ? (
            <p className="muted small insights-quiet">
              Nobody answered yet: {quiet.map((question) => question.title).join(', ')}.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

function QuestionInsights({
  question,
  days,
  asTable,
}: {
  question: InsightQuestion;
  days: number;
  asTable: boolean;
}) {
  const headingId = useId();
  const most = Math.max(1, ...question.options.map((option) => option.holders));
  return (
    <section className="question-insights" aria-labelledby={headingId}>
      <h3 id={headingId}>
        {question.title}{' '}
        <span className="muted small">
          · {question.answered} {question.answered === 1 ? 'member answered' : 'members answered'}
        </span>
      </h3>
      {/* The chart is for the eye; the table below says the same to a screen reader. */}
      {asTable ? null : (
        <ul className="insight-bars" aria-hidden="true">
          {question.options.map((option) => (
            <li key={option.option_id} className="insight-bar-row">
              <span className="insight-bar-label">{option.label}</span>
              <span className="insight-bar-track">
                <span
                  className="insight-bar"
                  style={{ width: `${(option.holders / most) * 100}%`, minWidth: option.holders > 0 ? 2 : 0 }}
                  data-testid="insight-bar"
                />
              </span>
              <span className="insight-bar-value">{option.holders}</span>
              <span className="muted small insight-bar-detail">{insightDetail(option)}</span>
            </li>
          ))}
        </ul>
      )}
      <div className={asTable ? 'table-scroll' : 'sr-only'}>
        <table className="insight-table">
          <caption>
            {question.title}: answers over the last {days} days
          </caption>
          <thead>
            <tr>
              <th scope="col">Answer</th>
              <th scope="col">Members holding it</th>
              <th scope="col">Picked</th>
              <th scope="col">Dropped</th>
              <th scope="col">XP per member</th>
              <th scope="col">New members still here after 7 days</th>
            </tr>
          </thead>
          <tbody>
            {question.options.map((option) => (
              <tr key={option.option_id}>
                <th scope="row">{option.label}</th>
                <td>{option.holders}</td>
                <td>{option.picked}</td>
                <td>{option.unpicked}</td>
                <td>{Math.round(option.xp_per_member)}</td>
                <td>{stillHereText(option.still_here_after_7_days)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
