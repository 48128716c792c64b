import { request as httpRequest, type IncomingMessage, type ServerResponse } from 'node:http';
import { request as httpsRequest } from 'node:https';
import { PROXY_NOT_SENT_HEADER, proxyRequestNeverSent } from '@spacecadet/contract';
import { readBody, sendJson } from './forwarder.ts';
import type { ProxyLease } from './lease.ts';
import type { ProxyMetrics } from './metrics.ts';

/** Marks a request a standby passed on, so a proxy that is not active either does not pass it again. */
export const FORWARDED_HEADER = 'x-spacecadet-proxy-forwarded';

/** Headers of one hop only (RFC 9110 §7.6.1), not passed on. */
const HOP_BY_HOP = new Set([
  'connection',
  'keep-alive',
  'proxy-connection',
  'transfer-encoding',
  'upgrade',
  'te',
  'trailer',
  'host',
  'content-length',
]);

/** How passing a request on ended: answered, never sent (try again elsewhere), or lost after sending. */
export type PassOnOutcome = 'answered' | 'not-sent' | 'lost';

/**
 * Passes one request on to the active proxy at `activeUrl` (its `/api`) as it came, headers and
 * body, and streams the answer back. Not through this process's rate limiter: the active one
 * counts it. A request the active proxy never received (connection refused) comes back
 * `not-sent` and the caller may send it elsewhere; one whose connection died after it went is
 * `lost`: the active proxy may have sent it to Discord, so it must not be sent again, and the
 * caller's connection is cut the same way, which its sender reads as a proxy that died with its
 * request.
 */
export function passOn(
  req: IncomingMessage,
  res: ServerResponse,
  body: Buffer | undefined,
  activeUrl: string,
): Promise<PassOnOutcome> {
  const target = new URL(`${activeUrl.replace(/\/api$/, '')}${req.url ?? '/'}`);
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined && !HOP_BY_HOP.has(name)) headers[name] = value;
  }
  headers[FORWARDED_HEADER] = '1';
  if (body) headers['content-length'] = String(body.length);
  const send = target.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve) => {
    let settled = false;
    const settle = (outcome: PassOnOutcome) => {
      if (settled) return;
      settled = true;
      resolve(outcome);
    };
    const outgoing = send(target, { method: req.method, headers, agent: false }, (answer) => {
      const answerHeaders: Record<string, string | string[]> = {};
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined && !HOP_BY_HOP.has(name)) answerHeaders[name] = value;
      }
      res.writeHead(answer.statusCode ?? 502, answerHeaders);
      answer.pipe(res);
      answer.on('error', () => {});
      // An answer cut short is cut short for the sender too: it must not take it as whole.
      answer.on('close', () => {
        if (!answer.complete) res.destroy();
        settle(answer.complete ? 'answered' : 'lost');
      });
    });
    outgoing.on('error', (error) => {
      if (proxyRequestNeverSent(error)) return settle('not-sent');
      res.destroy();
      settle('lost');
    });
    outgoing.end(body);
  });
}

type Forward = (
  req: IncomingMessage,
  res: ServerResponse,
  path: string,
  query: URLSearchParams,
  body?: Buffer,
) => Promise<boolean>;

/**
 * Serves one `/api` request as the lease says: sends it (active), passes it on to the active
 * proxy (standby), or waits for the lease to name one. A request the active proxy never received
 * (it died) waits here for the next one, so a takeover costs the sender a wait, not an error.
 */
export function dispatchUnderLease(
  lease: ProxyLease,
  forward: Forward,
  metrics: ProxyMetrics,
  ttlMs: number,
) {
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> => {
    const body = await readBody(req);
    // Long enough for a standby to take over from a dead active (TTL + TTL/3), with a margin.
    const deadline = Date.now() + Math.max(10_000, ttlMs * 3);
    for (;;) {
      const view = lease.view();
      if (view.role === 'active') {
        if (await forward(req, res, url.pathname, url.searchParams, body)) return;
      } else if (view.role === 'standby' && req.headers[FORWARDED_HEADER] === undefined) {
        metrics.passedOn.inc();
        if ((await passOn(req, res, body, view.url)) !== 'not-sent') return;
      }
      const left = deadline - Date.now();
      // Never sent anywhere: the sender may try again (discord.js does on a 5xx).
      if (left <= 0) {
        return sendJson(
          res,
          503,
          { message: 'No active Discord proxy answers', code: 0 },
          { [PROXY_NOT_SENT_HEADER]: '1' },
        );
      }
      await lease.changed(left);
    }
  };
}
