import { REST } from '@discordjs/rest';

/** rest's own bucket-route function: private in its types, the same one its handlers key on. */
interface RouteData {
  generateRouteData(endpoint: string, method: string): { bucketRoute: string };
}

/**
 * The label a request gets in metrics and logs: @discordjs/rest's bucket route
 * (`/guilds/:id/members/:id/roles/:id`), so ids and webhook or interaction tokens never appear.
 * Segments that are not plain words (an id shorter than a snowflake, an invite code, a token on a
 * route rest does not know) become `:param`, so a label can carry no secret and the label set
 * stays small.
 */
export function routeLabel(method: string, path: string): string {
  const { bucketRoute } = (REST as unknown as RouteData).generateRouteData(path, method);
  const segments = bucketRoute.split('/');
  return segments
    .map((segment: string, i: number) =>
      segment === '' ||
      segment.startsWith(':') ||
      (/^(@me|@original|[a-z][a-z-]{0,31})$/.test(segment) && !CODE_AFTER.has(segments[i - 1] ?? ''))
        ? segment
        : ':param',
    )
    .join('/');
}

/** Resources whose next segment is a code, not a word (an invite code can be all letters). */
const CODE_AFTER: ReadonlySet<string> = new Set(['invites', 'templates']);
