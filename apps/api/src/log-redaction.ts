/**
 * Query parameters that grant something on their own and must never reach a log: the queue
 * view's one-time ticket (`/admin/queues?ticket=`), and an OAuth code should one ever arrive
 * in a URL.
 */
const SECRET_PARAMS = new Set(['ticket', 'code']);

/** The request URL as logged: secret query values replaced with `[redacted]`. */
export function redactUrl(url: string): string {
  const queryAt = url.indexOf('?');
  if (queryAt === -1) return url;
  const query = url
    .slice(queryAt + 1)
    .split('&')
    .map((pair) => {
      const equals = pair.indexOf('=');
      const name = equals === -1 ? pair : pair.slice(0, equals);
      let decoded = name;
      try {
        decoded = decodeURIComponent(name.replace(/\+/g, ' '));
      } catch {
        // A malformed name is logged as sent; it cannot be one of ours.
      }
      return equals !== -1 && SECRET_PARAMS.has(decoded) ? `${name}=[redacted]` : pair;
    });
  return `${url.slice(0, queryAt)}?${query.join('&')}`;
}

/**
 * Fastify's request serializer (what `incoming request` lines carry as `req`), with the URL
 * redacted. The other fields are Fastify's defaults
 * (less `version`, an `accept-version` header we do not use).
 */
export function serializeRequest(request: LoggedRequest): Record<string, string | number> {
  const fields: Record<string, string | number | undefined> = {
    method: request.method,
    url: redactUrl(request.url),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
  return Object.fromEntries(Object.entries(fields).filter((entry) => entry[1] !== undefined)) as Record<
    string,
    string | number
  >;
}

/** What of a Fastify request the serializer reads. */
interface LoggedRequest {
  method: string;
  url: string;
  host?: string | undefined;
  ip?: string | undefined;
  socket?: { remotePort?: number | undefined } | undefined;
}
