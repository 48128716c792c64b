import { EMOJI_VIEW_SOURCE } from './component-emoji.ts';

/** Browser code for the chat view, plain ES2020 so no build step is needed. */
export const CHAT_VIEW_SCRIPT = String.raw`
const $ = (id) => document.getElementById(id);
const params = new URLSearchParams(location.search);
const ui = { guild: params.get('guild'), user: params.get('user'), channel: params.get('channel') };
let world = null; let lastJson = ''; let presence = { online: false };
const dismissed = new Set();

function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v; else if (k === 'style') node.style.cssText = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v); else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat()) if (c !== undefined && c !== null) node.append(c instanceof Node ? c : String(c));
  return node;
}
${EMOJI_VIEW_SOURCE}
const hex = (n) => '#' + Number(n || 0).toString(16).padStart(6, '0');
const byId = (a, b) => (BigInt(a.id) < BigInt(b.id) ? -1 : 1);
function toast(text, isError) {
  const t = $('toast'); t.textContent = text; t.className = isError ? 'err' : ''; t.style.display = 'block';
  clearTimeout(toast.timer); toast.timer = setTimeout(() => (t.style.display = 'none'), 3500);
}
function guild() { return world && world.guilds.find((g) => g.id === ui.guild); }
function userName(id) { const u = world.users.find((x) => x.id === id); return u ? (u.global_name || u.username) : id; }
function mentions(text) {
  const g = guild();
  return text.replace(/<@&(\d+)>/g, (_, id) => '@' + ((g && g.roles.find((r) => r.id === id)) || { name: 'role' }).name)
    .replace(/<@!?(\d+)>/g, (_, id) => '@' + userName(id)).replace(/<#(\d+)>/g, (_, id) => '#' + ((g && g.channels.find((c) => c.id === id)) || { name: id }).name);
}

function rich(text) {
  return mentions(text).split(/\*\*(.+?)\*\*/g).map((part, i) => (i % 2 ? el('strong', {}, part) : part));
}

async function api(method, path, body) {
  const res = await fetch('/_sandbox' + path, { method, headers: body ? { 'content-type': 'application/json' } : {}, body: body ? JSON.stringify(body) : undefined });
  const data = await res.json().catch(() => null);
  if (!res.ok) throw new Error((data && data.message) || res.statusText);
  return data;
}

async function interact(message, customId, values) {
  try {
    const body = { guild_id: ui.guild, channel_id: message.channel_id, message_id: message.id, user_id: ui.user, custom_id: customId };
    if (values) body.values = values;
    const result = await api('POST', '/interactions', body);
    // What Discord's client says when the bot did not answer within 3 seconds.
    if (!result.responded) toast('This interaction failed', true);
    await refresh(true);
  } catch (e) { toast(e.message, true); }
}

// Clicking a reaction under a message adds the acting member's, or takes it away, as in Discord.
async function toggleReaction(message, reaction) {
  const emoji = reaction.emoji.id ? reaction.emoji.name + ':' + reaction.emoji.id : reaction.emoji.name;
  const mine = (reaction.user_ids || []).includes(ui.user);
  try {
    await api(mine ? 'DELETE' : 'POST', '/reactions', { guild_id: ui.guild, channel_id: message.channel_id, message_id: message.id, user_id: ui.user, emoji });
    await refresh(true);
  } catch (e) { toast(e.message, true); }
}
function renderReactions(m) {
  if (!m.reactions || !m.reactions.length) return null;
  return el('div', { class: 'reactions' }, m.reactions.map((r) => {
    const mine = (r.user_ids || []).includes(ui.user);
    return el('button', { class: 'reaction' + (mine ? ' me' : ''), 'data-testid': 'reaction', 'data-emoji': r.emoji.id || r.emoji.name, 'aria-pressed': mine ? 'true' : 'false',
      title: (r.user_ids || []).map(userName).join(', '), disabled: !ui.user, onclick: () => toggleReaction(m, r) }, emojiNode(r.emoji), el('span', { class: 'count' }, String(r.count)));
  }));
}

// Picking an onboarding option, as a member does in Discord's Channels & Roles: the sandbox grants its roles.
async function answer(optionId) {
  try {
    await api('POST', '/guilds/' + ui.guild + '/onboarding/answers', { user_id: ui.user, option_ids: [optionId] });
    await refresh(true);
  } catch (e) { toast(e.message, true); }
}
function renderOnboarding(g) {
  const prompts = (g.onboarding && g.onboarding.prompts) || [];
  if (!prompts.length) return [];
  return [el('h2', {}, 'Onboarding'), ...prompts.map((p) => el('div', { class: 'prompt', 'data-prompt-id': p.id }, el('div', { class: 'fname' }, p.title),
    el('div', { class: 'row' }, p.options.map((o) => el('button', { class: 'btn s2', 'data-option-id': o.id, 'data-testid': 'onboarding-option', disabled: !ui.user,
      title: o.description || undefined, onclick: () => answer(o.id) }, emojiNode(o.emoji), o.title)))))];
}

function renderEmbed(e) {
  const fields = (e.fields || []).map((f) => el('div', { class: 'field' + (f.inline ? '' : ' wide') }, el('div', { class: 'fname' }, f.name), el('div', { class: 'fval' }, rich(f.value))));
  return el('div', { class: 'embed', 'data-testid': 'embed' }, el('div', { class: 'bar', style: e.color !== undefined ? 'background:' + hex(e.color) : '' }),
    el('div', { class: 'inner' }, e.author ? el('div', { class: 'fname' }, e.author.name) : null, e.title ? el('div', { class: 'title' }, e.title) : null,
      e.description ? el('div', { class: 'desc' }, rich(e.description)) : null, fields.length ? el('div', { class: 'fields' }, fields) : null,
      e.footer ? el('div', { class: 'footer' }, e.footer.text) : null));
}

function emojiNode(emoji) {
  const view = emojiView(emoji);
  if (!view) return null;
  return view.src ? el('img', { class: 'emoji', src: view.src, alt: view.alt, 'data-testid': 'component-emoji' })
    : el('span', { class: 'emoji', 'data-testid': 'component-emoji' }, view.text);
}
function emojiPrefix(emoji) { const view = emojiView(emoji); return view ? (view.text || view.alt) + ' ' : ''; }

function renderComponent(message, c) {
  if (c.type === 2) {
    // Discord draws a button's emoji before its label.
    const content = [emojiNode(c.emoji), c.label ? el('span', { class: 'label' }, c.label) : null];
    if (c.style === 5) return el('a', { class: 'btn s5', href: c.url, target: '_blank', rel: 'noreferrer' }, content, ' ↗');
    return el('button', { class: 'btn s' + (c.style || 2), 'data-custom-id': c.custom_id, 'data-testid': 'component-button', disabled: !!c.disabled || !ui.user,
      onclick: () => interact(message, c.custom_id) }, content);
  }
  const select = el('select', { class: 'menu', 'data-custom-id': c.custom_id, 'data-testid': 'component-select', multiple: (c.max_values || 1) > 1, disabled: !!c.disabled },
    (c.max_values || 1) > 1 ? null : el('option', { value: '' }, c.placeholder || 'Make a selection'),
    (c.options || []).map((o) => el('option', { value: o.value }, emojiPrefix(o.emoji) + o.label)));
  const send = () => { const values = [...select.selectedOptions].map((o) => o.value).filter(Boolean); if (values.length) interact(message, c.custom_id, values); };
  if ((c.max_values || 1) > 1) return el('div', { class: 'menu-wrap' }, select, el('button', { class: 'small', type: 'button', 'data-testid': 'select-submit', 'data-custom-id': c.custom_id, onclick: send }, 'Choose'));
  select.addEventListener('change', send);
  return select;
}

function renderAttachment(a) {
  const image = /^image\//.test(a.content_type || '');
  if (!image) return el('a', { class: 'file', href: a.url, target: '_blank', rel: 'noreferrer', 'data-testid': 'attachment' }, '📎 ' + a.filename);
  return el('a', { class: 'attachment', href: a.url, target: '_blank', rel: 'noreferrer' },
    el('img', { src: a.url, alt: a.description || a.filename, width: a.width, height: a.height, loading: 'lazy', 'data-testid': 'attachment-image' }));
}

function renderMessage(m, ephemeral) {
  const author = m.author || {};
  const rows = (m.components || []).map((row) => el('div', { class: 'row' }, (row.components || []).map((c) => renderComponent(m, c))));
  return el('div', { class: 'msg' + (ephemeral ? ' ephemeral' : ''), 'data-message-id': m.id, 'data-testid': ephemeral ? 'ephemeral-message' : 'message' },
    el('div', { class: 'avatar' + (author.bot ? ' bot' : '') }, (author.global_name || author.username || '?').slice(0, 1).toUpperCase()),
    el('div', { class: 'body' },
      el('div', {}, el('span', { class: 'author' }, author.global_name || author.username), author.bot ? el('span', { class: 'tag' }, 'APP') : null,
        el('span', { class: 'time' }, new Date(m.timestamp).toLocaleTimeString())),
      m.content ? el('div', { class: 'content' }, rich(m.content), m.edited_timestamp ? el('span', { class: 'edited' }, ' (edited)') : null) : null,
      (m.attachments || []).map(renderAttachment), (m.embeds || []).map(renderEmbed), rows, ephemeral ? null : renderReactions(m),
      ephemeral ? el('div', { class: 'eph-note' }, '👁 ', el('b', {}, 'Only you can see this'), ' · ',
        el('a', { href: '#', 'data-testid': 'dismiss', onclick: (e) => { e.preventDefault(); dismissed.add(m.id); render(); } }, 'Dismiss message')) : null));
}

function render() {
  const g = guild(); if (!g) return;
  const gs = $('guild'); gs.replaceChildren(...world.guilds.map((x) => el('option', { value: x.id, selected: x.id === ui.guild }, x.name)));
  const humans = g.members.map((m) => world.users.find((u) => u.id === m.user_id)).filter((u) => u && !u.bot);
  if (!humans.some((u) => u.id === ui.user)) ui.user = humans[0] ? humans[0].id : null;
  $('user').replaceChildren(...humans.map((u) => el('option', { value: u.id, selected: u.id === ui.user }, (u.global_name || u.username) + ' (@' + u.username + ')')));
  const texts = g.channels.filter((c) => c.type === 0).sort((a, b) => a.position - b.position);
  // The acting member's DMs with the bot (level-up messages and the like): read-only here.
  const dms = (world.dm_channels || []).filter((d) => d.recipient_id === ui.user);
  const dm = dms.find((d) => d.id === ui.channel);
  if (!dm && !texts.some((c) => c.id === ui.channel)) ui.channel = texts[0] ? texts[0].id : null;
  $('channels').replaceChildren(...texts.map((c) => el('a', { class: c.id === ui.channel ? 'active' : '', 'data-channel-id': c.id, onclick: () => { ui.channel = c.id; sync(); render(); } }, '# ' + c.name)));
  $('dms').replaceChildren(...(dms.length ? dms.map((d) => el('a', { class: d.id === ui.channel ? 'active' : '', 'data-dm-id': d.id, 'data-testid': 'dm-link', onclick: () => { ui.channel = d.id; sync(); render(); } }, '@ ' + world.application.name))
    : [el('div', { class: 'member' }, 'No direct messages')]));
  const channel = texts.find((c) => c.id === ui.channel);
  $('topic').textContent = dm ? '@ ' + world.application.name + ' (direct messages with ' + userName(ui.user) + ')' : channel ? '# ' + channel.name : 'No text channel';
  $('composer-input').disabled = !!dm;
  $('composer-input').placeholder = dm ? 'Direct messages from the bot are shown here' : channel ? 'Message #' + channel.name + ' as ' + userName(ui.user) + ' (or /command option:value)' : '';
  const visible = (dm ? dm.messages : channel ? channel.messages : []).map((m) => ({ m, eph: false }));
  for (const rec of world.interactions) {
    if (rec.user_id !== ui.user || rec.channel_id !== ui.channel) continue;
    for (const m of [rec.original, ...rec.followups]) if (m && (m.flags & 64) && !dismissed.has(m.id)) visible.push({ m, eph: true });
  }
  for (const rec of world.interactions) {
    // A deferred answer not yet edited in: Discord shows "<bot> is thinking…".
    const deferred = rec.response && rec.response.type === 5 && !rec.original;
    const eph = deferred && rec.response.data && (rec.response.data.flags & 64);
    if (!deferred || rec.channel_id !== ui.channel || (eph && rec.user_id !== ui.user)) continue;
    const bot = world.users.find((u) => u.id === world.application.id) || { username: 'bot', bot: true };
    visible.push({ eph: !!eph, m: { id: rec.id, channel_id: rec.channel_id, author: bot, content: bot.username + ' is thinking…', timestamp: new Date(rec.created_ms).toISOString(), flags: eph ? 64 : 0 } });
  }
  visible.sort((a, b) => byId(a.m, b.m));
  const box = $('messages'); const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  box.replaceChildren(...(visible.length ? visible.map((v) => renderMessage(v.m, v.eph)) : [el('div', { class: 'empty' }, 'No messages yet.')]));
  if (atBottom) box.scrollTop = box.scrollHeight;
  const me = g.members.find((m) => m.user_id === ui.user);
  const roles = g.roles.filter((r) => me && me.roles.includes(r.id)).sort((a, b) => b.position - a.position);
  $('roles').replaceChildren(...(roles.length ? roles.map((r) => el('div', { class: 'role', 'data-role-id': r.id }, el('span', { class: 'swatch', style: 'background:' + (r.color ? hex(r.color) : '#99aab5') }), r.name)) : [el('div', { class: 'member' }, 'No roles')]));
  $('onboarding').replaceChildren(...renderOnboarding(g));
  $('members').replaceChildren(...g.members.map((m) => el('div', { class: 'member' + (m.user_id === ui.user ? ' me' : '') }, userName(m.user_id) + (m.user_id === world.application.id ? ' 🤖' : ''))));
  $('dot').className = 'dot' + (presence.online ? ' on' : '');
  $('status-text').textContent = presence.online ? world.application.name + ' online' : world.application.name + ' offline';
}

function sync() {
  const q = new URLSearchParams({ guild: ui.guild || '', user: ui.user || '', channel: ui.channel || '' });
  history.replaceState(null, '', '?' + q);
}

async function refresh(force) {
  if (!force && document.activeElement && document.activeElement.tagName === 'SELECT') return;
  try {
    const [state, pres] = await Promise.all([api('GET', '/state'), api('GET', '/presence')]);
    const json = JSON.stringify([state, pres.online]);
    if (!force && json === lastJson) return;
    lastJson = json; world = state; presence = pres;
    if (!guild()) ui.guild = world.guilds[0] && world.guilds[0].id;
    render(); sync();
  } catch (e) { $('status-text').textContent = 'Sandbox unreachable'; }
}

$('guild').addEventListener('change', (e) => { ui.guild = e.target.value; ui.channel = null; render(); sync(); });
$('user').addEventListener('change', (e) => { ui.user = e.target.value; render(); sync(); });
$('composer').addEventListener('submit', async (e) => {
  e.preventDefault(); const input = $('composer-input'); const content = input.value.trim(); if (!content) return;
  try {
    if (content.startsWith('/')) {
      // "/name key:value key2:"two words"" runs a slash command the bot registered.
      const [, name, rest] = content.match(/^\/(\S+)\s*(.*)$/) || [];
      const options = {};
      for (const m of (rest || '').matchAll(/(\w+):(?:"([^"]*)"|(\S+))/g)) options[m[1]] = m[2] !== undefined ? m[2] : m[3];
      const result = await api('POST', '/commands', { guild_id: ui.guild, channel_id: ui.channel, user_id: ui.user, name, options });
      if (!result.responded) toast('The application did not respond', true);
    } else {
      await api('POST', '/messages', { guild_id: ui.guild, channel_id: ui.channel, author_id: ui.user, content });
    }
    input.value = ''; await refresh(true);
  } catch (err) { toast(err.message, true); }
});
refresh(true); setInterval(() => refresh(false), 1000);
`;
