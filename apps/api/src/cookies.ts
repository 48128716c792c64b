import type { FastifyRequest } from 'fastify';
import type { ApiConfig } from './env.ts';

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

/**
 * Whether the API's cookies carry `Secure`: when it is served over https (PUBLIC_API_URL). A
 * browser drops a Secure cookie set over plain http, so the http demo could not sign in with one.
 */
export function secureCookies(config: Pick<ApiConfig, 'publicApiUrl'>): boolean {
  return config.publicApiUrl.startsWith('https:');
}
