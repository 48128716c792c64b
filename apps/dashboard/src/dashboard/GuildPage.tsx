import { Fragment, type ReactNode } from 'react';
import { useGuildParam } from './guild-param.ts';

/**
 * A dashboard page for the server in `?guild=`: title, a head slot (server select, sub-nav)
 * and the screen, remounted when the server changes. Without a server it asks for one.
 */
export function GuildPage({
  title,
  className,
  head,
  children,
}: {
  title: string;
  className?: string;
  head: (guildId: string | null) => ReactNode;
  children: (guildId: string) => ReactNode;
}) {
  const guildId = useGuildParam();
  return (
    <section className={className ? `page ${className}` : 'page'} aria-labelledby="page-title">
      <div className="page-head">
        <h1 id="page-title">{title}</h1>
        {head(guildId)}
      </div>
      {guildId ? (
        <Fragment key={guildId}>{children(guildId)}</Fragment>
      ) : (
        <p className="muted">Pick a server.</p>
      )}
    </section>
  );
}
