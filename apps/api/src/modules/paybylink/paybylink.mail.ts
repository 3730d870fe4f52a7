import fs from 'node:fs';
import path from 'node:path';
import { formatMoney, type Language } from '@portal/contract';
import type { Deps } from '../../plugins/context';
import type { MailMessage } from '../../plugins/mail';
import { t } from '../../lib/messages';
import { formatInZone, offsetLabel } from '../../lib/zone';
import { attachmentById } from './attachment.repo';
import { filesRoot } from './attachment.service';
import { payLink } from './paybylink.mapper';
import { addEvent, findOrder, setEmailStatus, type PblDbRow } from './paybylink.repo';

const esc = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The buyer's e-mail: the link, the amount, the goods, the expiry, and the bill file attached. */
async function buildBuyerMail(deps: Deps, o: PblDbRow, lang: Language, linkBase: string): Promise<MailMessage> {
  const link = payLink(linkBase, o.token);
  const amount = formatMoney(o.total_amount, o.order_currency, lang);
  const att = o.attachment_id ? await attachmentById(deps.db, o.attachment_id) : null;
  const tz = deps.config.platformTz;
  const params = {
    merchant: o.mer_name,
    currency: o.order_currency,
    amount,
    goods: o.goods_name,
    invoice: o.recon_id,
    orderNo: o.order_no,
    link,
    expires: formatInZone(o.expires_at, tz),
    zone: offsetLabel(tz, o.expires_at.getTime()),
    contact: o.user_email ?? o.mer_name,
    attachmentLine: att ? t(lang, 'pblMailAttachmentLine', { file: att.file_name }) : '',
  };
  const text = t(lang, 'pblMailBody', params);
  const html =
    `<!doctype html><html><body style="font-family:Arial,Helvetica,sans-serif;color:#262626;line-height:1.6">` +
    text
      .split('\n')
      .map((line) =>
        line === link
          ? `<p><a href="${esc(link)}" style="display:inline-block;background:#1677ff;color:#fff;padding:10px 20px;border-radius:6px;text-decoration:none">${esc(t(lang, 'pblMailPayButton'))}</a><br><span style="font-size:12px;color:#8c8c8c">${esc(link)}</span></p>`
          : esc(line),
      )
      .join('<br>') +
    '</body></html>';
  const msg: MailMessage = { to: o.buyer_email!, subject: t(lang, 'pblMailSubject', params), text, html };
  if (att) {
    msg.attachments = [{ filename: att.file_name, content: fs.readFileSync(path.join(filesRoot(deps), att.storage_path)), contentType: att.content_type }];
  }
  return msg;
}

/**
 * Sends the buyer e-mail of order `id` and records the outcome on the order and its timeline.
 * A failed send is never silent: 'failed' goes back to the merchant's screen and stays on the order.
 */
export async function sendBuyerMail(deps: Deps, id: number, opts: { lang: Language; linkBase: string; actor: string }): Promise<'sent' | 'failed'> {
  const o = await findOrder(deps.db, { id });
  if (!o || !o.buyer_email) return 'failed';
  let result: 'sent' | 'failed';
  let detail: Record<string, unknown>;
  try {
    const msg = await buildBuyerMail(deps, o, opts.lang, opts.linkBase);
    const info = await deps.mailer.send(msg);
    result = 'sent';
    detail = { to: o.buyer_email, messageId: info.messageId, attachment: msg.attachments?.[0]?.filename ?? null };
  } catch (err) {
    result = 'failed';
    detail = { to: o.buyer_email, error: (err instanceof Error ? err.message : String(err)).slice(0, 300) };
  }
  const now = deps.clock.now();
  await deps.db.tx(async (q) => {
    await setEmailStatus(q, id, result, now);
    await addEvent(q, id, result === 'sent' ? 'emailed' : 'emailFailed', opts.actor, now, detail);
  });
  return result;
}
