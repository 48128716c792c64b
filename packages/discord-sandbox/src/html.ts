const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (ch) => ESCAPES[ch] ?? ch);
}

/** A minimal Discord-looking page shell for the OAuth screens. */
export function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>
body{margin:0;min-height:100vh;display:flex;align-items:center;justify-content:center;background:#1e1f22;
font-family:"gg sans","Noto Sans",Helvetica,Arial,sans-serif;color:#dbdee1}
main{background:#313338;border-radius:8px;padding:28px 32px;width:min(440px,92vw);box-shadow:0 8px 24px #0006}
h1{font-size:20px;margin:0 0 6px;color:#f2f3f5}p{color:#b5bac1;font-size:14px;line-height:1.4}
ul{list-style:none;padding:0;margin:14px 0}li{margin:6px 0}
a.pick{display:flex;align-items:center;gap:10px;padding:10px 12px;border-radius:6px;background:#2b2d31;
color:#f2f3f5;text-decoration:none}a.pick:hover{background:#404249}
.av{width:32px;height:32px;border-radius:50%;background:#5865f2;display:flex;align-items:center;
justify-content:center;font-weight:700;color:#fff}.muted{color:#949ba4;font-size:12px}
h2{font-size:14px;text-transform:uppercase;color:#b5bac1;margin:18px 0 4px}.err{color:#fa777c}
code{background:#1e1f22;padding:1px 4px;border-radius:3px}
</style></head><body><main>${body}</main></body></html>`;
}
