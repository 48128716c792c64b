import type { FastifyInstance } from 'fastify';
import type { SandboxContext } from './context.ts';
import { escapeHtml } from './html.ts';

const PALETTE = ['#5865f2', '#3ba55c', '#faa61a', '#ed4245', '#eb459e', '#00a8fc', '#9b59b6'];

function picture(letter: string, seed: string, round: boolean): string {
  const color = PALETTE[Number(BigInt(seed || '0') % BigInt(PALETTE.length))] ?? PALETTE[0];
  const shape = round
    ? `<circle cx="64" cy="64" r="64" fill="${color}"/>`
    : `<rect width="128" height="128" rx="28" fill="${color}"/>`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="128" height="128" viewBox="0 0 128 128">${shape}<text x="64" y="84" font-family="Helvetica,Arial,sans-serif" font-size="60" font-weight="700" text-anchor="middle" fill="#fff">${escapeHtml(letter.toUpperCase())}</text></svg>`;
}

/**
 * Discord's CDN paths (`/avatars/:user/:hash.png`, `/icons/:guild/:hash.png`,
 * `/embed/avatars/:n.png`, `/emojis/:id.webp`) answered with generated pictures, so a dashboard pointed at the
 * sandbox shows images offline. Served as SVG whatever the extension asks for. Message attachments
 * (`/attachments/:channel/:id/:name`) are the uploaded bytes.
 */
export function registerCdn(app: FastifyInstance, ctx: SandboxContext): void {
  const send = (reply: import('fastify').FastifyReply, svg: string) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=3600').send(svg);

  app.get<{ Params: { userId: string; file: string } }>('/avatars/:userId/:file', async (req, reply) => {
    const user = ctx.state.users.get(req.params.userId);
    return send(
      reply,
      picture((user?.global_name ?? user?.username ?? '?').slice(0, 1), req.params.userId, true),
    );
  });
  app.get<{ Params: { guildId: string; file: string } }>('/icons/:guildId/:file', async (req, reply) => {
    const guild = ctx.state.guilds.get(req.params.guildId);
    return send(reply, picture((guild?.name ?? '?').slice(0, 1), req.params.guildId, false));
  });
  app.get<{ Params: { file: string } }>('/emojis/:file', async (req, reply) => {
    // A guild's custom emoji shows its name's first letter; an unknown id (say, on a component) a colon.
    const id = /^\d+/.exec(req.params.file)?.[0] ?? '0';
    const emoji = [...ctx.state.guilds.values()].flatMap((g) => g.emojis ?? []).find((e) => e.id === id);
    return send(reply, picture(emoji?.name?.slice(0, 1) ?? ':', id, false));
  });
  // Files uploaded with a message, byte for byte, at the path Discord's CDN uses.
  app.get<{ Params: { channelId: string; attachmentId: string; file: string } }>(
    '/attachments/:channelId/:attachmentId/:file',
    async (req, reply) => {
      const file = ctx.state.attachmentFile(req.params.attachmentId);
      if (!file) return reply.code(404).type('text/plain').send('Not found');
      return reply.type(file.content_type).header('cache-control', 'public, max-age=3600').send(file.bytes);
    },
  );
  app.get<{ Params: { file: string } }>('/embed/avatars/:file', async (req, reply) => {
    const index = /^\d+/.exec(req.params.file)?.[0] ?? '0';
    return send(reply, picture('?', index, true));
  });
}
