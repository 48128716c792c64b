/** The signed-in user's own data: download it, erase it. */
import { ok, route } from '../route-definition.ts';
import { MemberDataErased, MemberDataExport } from './schemas.ts';

export const memberDataRoutes = {
  exportMemberData: route({
    method: 'GET',
    path: '/api/me/data',
    auth: 'session',
    tag: 'auth',
    summary:
      'Everything stored about the signed-in user (sessions, XP and daily rows, picks, History entries naming them, Redis keys), as a JSON download',
    errors: [401, 429, 503],
    responses: ok(MemberDataExport),
  }),
  eraseMemberData: route({
    method: 'DELETE',
    path: '/api/me/data',
    auth: 'session',
    tag: 'auth',
    summary:
      "Erases the signed-in user's data in every server (History entries stay without their name and avatar) and ends their sessions",
    errors: [400, 401, 413, 415, 429, 503],
    responses: ok(MemberDataErased),
  }),
} as const;
