import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Deps } from '../../plugins/context';
import { readOutbox } from '../../plugins/mail';
import { ok } from '../../lib/envelope';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Development only (never registered in production): the outbox of mail written to DATA_DIR/outbox. */
export function devRoutes(app: FastifyInstance, deps: Deps) {
  const outbox = path.join(deps.config.dataDir, 'outbox');
  app.get('/api/dev/mailbox', { config: { auth: 'public' }, schema: { tags: ['dev'], summary: 'Development outbox, newest first (not in production)' } }, async () =>
    ok(await readOutbox(outbox)),
  );
  app.get('/dev/mailbox', { config: { auth: 'public' } }, async (_req, reply) => {
    const items = await readOutbox(outbox);
    const rows = items
      .map(
        (m) => `<article><header><b>${esc(m.subject)}</b> → ${esc(m.to)} <time>${esc(m.date)}</time></header>
<pre>${esc(m.text)}</pre>${m.attachments.map((a) => `<div>📎 ${esc(a.filename)} (${a.size} bytes)</div>`).join('')}</article>`,
      )
      .join('\n');
    reply.type('text/html; charset=utf-8');
    return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Development mailbox</title>
<style>body{font-family:system-ui,sans-serif;max-width:900px;margin:2rem auto;padding:0 1rem}article{border:1px solid #ddd;border-radius:8px;padding:12px;margin:12px 0}time{color:#888;font-size:12px}pre{white-space:pre-wrap}</style></head>
<body><h1>Development mailbox</h1><p>${items.length} message(s) in <code>${esc(outbox)}</code>, newest first. Reload to refresh.</p>${rows || '<p>No mail yet.</p>'}</body></html>`;
  });
}
