import type { FastifyInstance } from 'fastify';
import { CHAT_VIEW_SCRIPT } from './chat-view-script.ts';

const STYLE = `
:root{--bg:#313338;--side:#2b2d31;--rail:#1e1f22;--text:#dbdee1;--muted:#949ba4;--head:#f2f3f5;--blurple:#5865f2}
*{box-sizing:border-box}body{margin:0;height:100vh;display:flex;flex-direction:column;background:var(--bg);color:var(--text);
font:15px/1.375 "gg sans","Noto Sans",Helvetica,Arial,sans-serif}
header{display:flex;gap:12px;align-items:center;padding:8px 14px;background:var(--rail);border-bottom:1px solid #0003}
header h1{font-size:15px;margin:0 8px 0 0;color:var(--head)}label{font-size:12px;color:var(--muted);text-transform:uppercase}
select,input,button{font:inherit}header select{background:var(--side);color:var(--text);border:1px solid #0006;border-radius:4px;padding:4px 6px}
.status{margin-left:auto;display:flex;align-items:center;gap:6px;font-size:13px}.dot{width:10px;height:10px;border-radius:50%;background:#80848e}
.dot.on{background:#23a55a}.layout{flex:1;display:flex;min-height:0}
nav{width:220px;background:var(--side);padding:10px 8px;overflow:auto}nav h2,aside h2{font-size:12px;text-transform:uppercase;color:var(--muted);margin:10px 8px 6px}
nav a{display:block;padding:5px 8px;border-radius:4px;color:var(--muted);text-decoration:none;cursor:pointer}nav a:hover{background:#35373c;color:var(--text)}
nav a.active{background:#404249;color:var(--head)}main{flex:1;display:flex;flex-direction:column;min-width:0}
.topic{padding:10px 16px;border-bottom:1px solid #0003;color:var(--head);font-weight:600}
#messages{flex:1;overflow:auto;padding:8px 0 16px}.msg{display:flex;gap:14px;padding:6px 16px}.msg:hover{background:#2e3035}
.msg.ephemeral{background:#5865f20d;border-left:2px solid var(--blurple)}
.avatar{flex:none;width:40px;height:40px;border-radius:50%;background:var(--blurple);display:flex;align-items:center;justify-content:center;color:#fff;font-weight:700}
.avatar.bot{background:#3ba55c}.body{min-width:0;flex:1}.author{color:var(--head);font-weight:600}.time{color:var(--muted);font-size:12px;margin-left:6px}
.tag{background:var(--blurple);color:#fff;font-size:10px;font-weight:700;border-radius:3px;padding:1px 4px;margin-left:4px;vertical-align:middle}
.content{white-space:pre-wrap;word-wrap:break-word}.edited{color:var(--muted);font-size:11px}
.eph-note{color:var(--muted);font-size:12px;margin-top:4px}.eph-note a{color:#00a8fc;text-decoration:none}.eph-note b{color:#00a8fc;font-weight:500}
.attachment{display:block;margin-top:6px}.attachment img{display:block;max-width:min(100%,520px);height:auto;border-radius:8px}.file{display:inline-block;margin-top:6px}
.embed{display:flex;max-width:520px;margin-top:6px;background:var(--side);border-radius:4px;overflow:hidden}.embed .bar{width:4px;flex:none;background:#1e1f22}
.embed .inner{padding:8px 12px 10px}.embed .title{font-weight:600;color:var(--head)}.embed .desc{white-space:pre-wrap;font-size:14px;margin-top:4px}
.embed .fields{display:grid;grid-template-columns:repeat(3,minmax(0,1fr));gap:6px;margin-top:6px}.embed .field.wide{grid-column:1/-1}
.embed .fname{font-weight:600;font-size:13px;color:var(--head)}.embed .fval{font-size:13px;white-space:pre-wrap}.embed .footer{font-size:12px;color:var(--muted);margin-top:8px}
.row{display:flex;flex-wrap:wrap;gap:8px;margin-top:8px}.btn{border:0;border-radius:4px;padding:2px 16px;min-height:32px;color:#fff;cursor:pointer;font-weight:500;
display:inline-flex;align-items:center;justify-content:center;gap:6px;text-decoration:none}
.btn .emoji{font-size:18px;line-height:1;font-family:"Twemoji","Noto Color Emoji","Apple Color Emoji","Segoe UI Emoji",sans-serif}img.emoji{width:20px;height:20px}
.btn:disabled{opacity:.5;cursor:not-allowed}.s1{background:var(--blurple)}.s2{background:#4e5058}.s3{background:#248046}.s4{background:#da373c}.s5{background:#4e5058}
.btn:hover:not(:disabled){filter:brightness(1.1)}.menu{min-width:320px;max-width:520px;background:var(--side);color:var(--text);border:1px solid #0006;border-radius:4px;padding:6px}
.reactions{display:flex;flex-wrap:wrap;gap:4px;margin-top:6px}.reaction{display:inline-flex;align-items:center;gap:5px;background:var(--side);border:1px solid transparent;
border-radius:8px;padding:2px 7px;color:var(--text);cursor:pointer;font-size:14px}.reaction.me{background:#5865f226;border-color:var(--blurple)}.reaction img.emoji{width:16px;height:16px}
.reaction .emoji{font-size:16px}.reaction:disabled{cursor:not-allowed}.menu-wrap{display:flex;gap:6px;align-items:flex-start}.small{background:var(--blurple);color:#fff;border:0;border-radius:4px;padding:6px 10px;cursor:pointer}
aside{width:240px;background:var(--side);padding:10px;overflow:auto}.role{display:flex;align-items:center;gap:6px;padding:3px 6px;border-radius:4px;font-size:13px}
.prompt{margin:4px 6px 10px;font-size:13px}.prompt .row{gap:6px;margin-top:4px}.prompt .btn{padding:2px 10px;min-height:26px;font-size:13px}
.role .swatch{width:12px;height:12px;border-radius:50%;flex:none}.member{padding:4px 6px;font-size:14px;color:var(--muted)}.member.me{color:var(--head)}
form.composer{padding:0 16px 18px}form.composer input{width:100%;padding:11px 14px;border-radius:8px;border:0;background:#383a40;color:var(--text)}
#toast{position:fixed;bottom:80px;left:50%;transform:translateX(-50%);background:#111214;color:var(--head);padding:8px 14px;border-radius:6px;display:none}
#toast.err{background:#da373c}.empty{color:var(--muted);padding:16px}
@media (max-width:700px){
header{flex-wrap:wrap;row-gap:6px;padding:6px 10px}.status{margin-left:0}header select{max-width:60vw}
.layout{flex-direction:column}main{min-height:0}nav{width:auto;flex:none;padding:4px 8px;overflow-x:auto}nav h2{display:none}
#channels{display:flex;gap:4px}nav a{white-space:nowrap}.topic{padding:6px 10px}
aside{width:auto;flex:0 0 28vh;border-top:1px solid #0006}
.msg{gap:10px;padding:6px 10px}.avatar{width:32px;height:32px}.btn{padding:2px 10px}
.menu{min-width:0;width:100%}.menu-wrap{flex-wrap:wrap}form.composer{padding:0 10px 10px}
}
`;

function chatViewHtml(): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Sandbox chat</title><style>${STYLE}</style></head>
<body>
<header><h1>Discord sandbox</h1>
<label for="guild">Server</label><select id="guild" data-testid="guild-select"></select>
<label for="user">Acting as</label><select id="user" data-testid="user-select"></select>
<span class="status" data-testid="bot-status"><span class="dot" id="dot"></span><span id="status-text">Bot offline</span></span></header>
<div class="layout">
<nav><h2>Text channels</h2><div id="channels"></div><h2>Direct messages</h2><div id="dms" data-testid="dms"></div></nav>
<main><div class="topic" id="topic"></div><div id="messages" data-testid="messages"></div>
<form class="composer" id="composer"><input id="composer-input" data-testid="composer" maxlength="2000" autocomplete="off"></form></main>
<aside><h2>Your roles</h2><div id="roles" data-testid="my-roles"></div><div id="onboarding" data-testid="onboarding"></div><h2>Members</h2><div id="members"></div></aside>
</div><div id="toast" role="status"></div>
<script>${CHAT_VIEW_SCRIPT}</script></body></html>`;
}

/** `GET /` and `/chat`: a Discord-like page to act as a member (posts and clicks via the control API). */
export function registerChatView(app: FastifyInstance): void {
  const html = chatViewHtml();
  for (const path of ['/', '/chat']) {
    app.get(path, async (_req, reply) => reply.type('text/html; charset=utf-8').send(html));
  }
  app.get('/favicon.ico', async (_req, reply) => reply.code(204).send());
}
