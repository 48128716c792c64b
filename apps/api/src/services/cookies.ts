import type { FastifyRequest } from 'fastify';
import type { ApiConfig } from '../env.ts';

/**
 * The attributes every cookie the API sets carries. Behind HTTPS (PUBLIC_API_URL is https://, as
 * in the live deployment behind Caddy) cookies are `Secure`, so a browser never sends them over
 * plain HTTP; over http:// (the demo, tests) a Secure cookie would be dropped, so they are not.
 */
export interface CookieSecurity {
  secure: boolean;
}

export function cookieSecurity(config: Pick<ApiConfig, 'publicApiUrl'>): CookieSecurity {
  return { secure: new URL(config.publicApiUrl).protocol === 'https:' };
}

export interface CookieOptions {
  path: string;
  /** Seconds until the browser drops it; 0 clears it. */
  maxAgeSec: number;
  sameSite: 'Strict' | 'Lax';
}

/** A `Set-Cookie` value of the API: always HttpOnly, Secure by `cookieSecurity(config)`. */
export function setCookieHeader(
  config: Pick<ApiConfig, 'publicApiUrl'>,
  name: string,
  value: string,
  options: CookieOptions,
): string {
  const attributes = [
    `${name}=${value}`,
    `Path=${options.path}`,
    `Max-Age=${Math.max(0, Math.floor(options.maxAgeSec))}`,
    'HttpOnly',
    `SameSite=${options.sameSite}`,
  ];
  if (cookieSecurity(config).secure) attributes.push('Secure');
  return attributes.join('; ');
}

/** A cookie's value from the request's Cookie header, or null. */
export function cookieValue(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const [key, ...rest] = part.trim().split('=');
    if (key === name) return rest.join('=');
  }
  return null;
}
