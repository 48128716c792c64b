import { MESSAGES } from '@spacecadet/contract';
import type { UseQueryResult } from '@tanstack/react-query';
import { Fragment, type ReactElement, type ReactNode } from 'react';
import { errorText } from '../../lib/api-error.ts';
import { installUrl } from '../../lib/oauth.ts';
import { PageLoading } from '../../ui/PageLoading.tsx';
import { ErrorBox } from './ErrorBox.tsx';
import { useGuildParam } from './guild-param.ts';
import { useBotInGuild } from './queries.ts';

/** The frame of every dashboard page: a heading row (title, optional slots) and the screen. */
export function PageShell({
  title,
  className,
  before,
  head,
  children,
}: {
  title: ReactNode;
  className?: string | undefined;
  /** Above the title inside the heading row (e.g. a back link). */
  before?: ReactNode;
  /** After the title (server select, sub-nav). */
  head?: ReactNode;
  children: ReactNode;
}) {
  return (
    <section className={className ? `page ${className}` : 'page'} aria-labelledby="page-title">
      <div className="page-head">
        {before}
        <h1 id="page-title">{title}</h1>
        {head}
      </div>
      {children}
    </section>
  );
}

/**
 * A dashboard page for the server in `?guild=`: title, a head slot (server select, sub-nav)
 * and the screen, remounted when the server changes. Without a server it shows `noGuild`
 * (by default it asks for one).
 */
export function GuildPage({
  title,
  className,
  head,
  noGuild = <p className="muted">Pick a server.</p>,
  children,
}: {
  title: string;
  className?: string;
  head?: (guildId: string | null) => ReactNode;
  noGuild?: ReactNode;
  children: (guildId: string) => ReactNode;
}) {
  const guildId = useGuildParam();
  return (
    <PageShell title={title} className={className} head={head?.(guildId)}>
      {guildId ? <Fragment key={guildId}>{children(guildId)}</Fragment> : noGuild}
    </PageShell>
  );
}

export type PageGuard<T> =
  | { ready: false; view: ReactElement }
  | {
      ready: true;
      data: T;
      botInGuild: boolean;
      /** The red box when a reload failed: the last data stays on screen below it. */
      banner: ReactElement | null;
    };

/**
 * The states every guild screen goes through before it has something to show: loading (its
 * data, and the bot's presence when `bot` is set), then a failed load in the red box. Call it
 * after the screen's other hooks; `if (!guard.ready) return guard.view;`.
 */
export function usePageGuard<T>(
  guildId: string | null,
  query: UseQueryResult<T>,
  options: { loading?: string; failure?: (error: unknown) => string; bot?: boolean } = {},
): PageGuard<T> {
  const inGuild = useBotInGuild(options.bot ? guildId : null);
  const failure = query.isError ? <ErrorBox>{(options.failure ?? errorText)(query.error)}</ErrorBox> : null;
  if (query.isPending || (options.bot && inGuild.isPending)) {
    return { ready: false, view: <PageLoading {...(options.loading ? { label: options.loading } : {})} /> };
  }
  if (query.data === undefined) return { ready: false, view: failure ?? <PageLoading /> };
  return { ready: true, data: query.data, botInGuild: inGuild.data === true, banner: failure };
}

/**
 * Said once per page when the bot is not in the server, with the way to fix it. Channel
 * selects still read Bot not in guild in their (disabled) box.
 */
export function BotNotInGuild({ guildId, id }: { guildId: string; id?: string }) {
  return (
    <div id={id} className="alert alert-warning bot-missing">
      <span>{MESSAGES.botNotInGuild}</span>
      <a className="btn btn-discord btn-sm" href={installUrl(guildId)}>
        Invite to Server
      </a>
    </div>
  );
}
