import type { ReactNode } from 'react';

/** Previous / where we are / Next under a paged list; shown only when there is more than one page. */
export function Pager({
  page,
  pages,
  onPage,
  className,
  children,
}: {
  page: number;
  pages: number;
  onPage: (page: number) => void;
  className: string;
  /** What the middle says (e.g. "Page 2 of 5"). */
  children: ReactNode;
}) {
  if (pages <= 1) return null;
  return (
    <nav className={className} aria-label="Leaderboard pages">
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={page <= 1}
        onClick={() => onPage(page - 1)}
      >
        Previous
      </button>
      {children}
      <button
        type="button"
        className="btn btn-secondary btn-sm"
        disabled={page >= pages}
        onClick={() => onPage(page + 1)}
      >
        Next
      </button>
    </nav>
  );
}
