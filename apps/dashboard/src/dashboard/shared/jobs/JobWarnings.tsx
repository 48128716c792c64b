/** What a finished job could not do and the admin can fix (the bot's role too low, ...). */
export function JobWarnings({ warnings }: { warnings: readonly string[] }) {
  if (warnings.length === 0) return null;
  return (
    <div className="alert alert-warning role-warning" role="alert">
      <div>
        <strong>Space Cadet needs your attention</strong>
        <ul>
          {warnings.map((warning) => (
            <li key={warning}>{warning}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}
