import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import ExcelJS from 'exceljs';
import { createTestApp, DB_KINDS, DEMO, type TestCtx } from '../../../test/helpers';
import { sniffFileType } from './file-type';
import { CSV, EXE, JPG, PDF, PNG, XLS, createOrder, pbl } from './paybylink.fixtures';

async function xlsx(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Bill').addRow(['invoice', 'amount']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe('sniffFileType (magic bytes)', () => {
  it('knows the six allowed kinds by content', async () => {
    expect(sniffFileType(PDF)).toBe('pdf');
    expect(sniffFileType(PNG)).toBe('png');
    expect(sniffFileType(JPG)).toBe('jpg');
    expect(sniffFileType(XLS)).toBe('xls');
    expect(sniffFileType(await xlsx())).toBe('xlsx');
    expect(sniffFileType(CSV)).toBe('csv');
    expect(sniffFileType(Buffer.from('名称,金额\n茶,1\n'))).toBe('csv');
  });
  it('refuses executables, other archives and binary data', () => {
    expect(sniffFileType(EXE)).toBeNull();
    expect(sniffFileType(Buffer.from([0x50, 0x4b, 0x03, 0x04, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0x61, 0x2e, 0x74, 0x78, 0x74]))).toBeNull();
    expect(sniffFileType(Buffer.from([0x7f, 0x45, 0x4c, 0x46, 2, 1, 1]))).toBeNull();
    expect(sniffFileType(Buffer.alloc(0))).toBeNull();
  });
});

describe.each(DB_KINDS)('POST /payByLink/uploadFile and GET /payByLink/attachmentDownload on %s', (kind) => {
  let ctx: TestCtx;
  let demo: string;
  let sub: string;
  let other: string;
  beforeAll(async () => {
    ctx = await createTestApp({ kind });
    demo = (await ctx.login(DEMO.users.demo)).token;
    sub = (await ctx.login(DEMO.users.sub)).token;
    other = (await ctx.login(DEMO.users.other)).token;
  });
  afterAll(() => ctx.close());

  it.each([
    ['bill.pdf', PDF, 'pdf'],
    ['photo.png', PNG, 'png'],
    ['scan.jpeg', JPG, 'jpg'],
    ['sheet.xls', XLS, 'xls'],
    ['list.csv', CSV, 'csv'],
  ])('accepts %s', async (name, content, type) => {
    const res = await pbl(ctx, demo).upload(name, content as Buffer);
    expect(res.body).toMatchObject({ code: 0, msg: 'success', data: { fileName: name, size: (content as Buffer).length, type } });
    expect(res.body.data.attachment).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('strips a right-to-left override (and every bidirectional control) from the stored and the downloaded name', async () => {
    // "bill\u202Eexe.pdf" shows as "billfdp.exe"
    const res = await pbl(ctx, demo).upload('bill\u202Eexe\u2066.\u200fpdf', PDF);
    expect(res.body).toMatchObject({ code: 0, data: { fileName: 'billexe.pdf', type: 'pdf' } });
    const dl = await pbl(ctx, demo).raw(`/api/payByLink/attachmentDownload?attachment=${res.body.data.attachment}`);
    expect(dl.statusCode).toBe(200);
    const cd = String(dl.headers['content-disposition']);
    expect(cd).toBe(`attachment; filename="billexe.pdf"; filename*=UTF-8''billexe.pdf`);
    // A name stored before the fix is cleaned on the way out too (the one helper of every download).
    const up = await ctx.db.query(`UPDATE pay_by_link_attachment SET file_name = $2 WHERE file_key = $1`, [res.body.data.attachment, 'old\u202Eexe.pdf']);
    expect(up.rowCount ?? (up as { affectedRows?: number }).affectedRows).toBe(1);
    const old = await pbl(ctx, demo).raw(`/api/payByLink/attachmentDownload?attachment=${res.body.data.attachment}`);
    expect(String(old.headers['content-disposition'])).toBe(`attachment; filename="oldexe.pdf"; filename*=UTF-8''oldexe.pdf`);
  });

  it('accepts a real XLSX and hands it back byte for byte', async () => {
    const content = await xlsx();
    const res = await pbl(ctx, demo).upload('账单.xlsx', content);
    expect(res.body.data.type).toBe('xlsx');
    const dl = await pbl(ctx, demo).raw(`/api/payByLink/attachmentDownload?attachment=${res.body.data.attachment}`);
    expect(dl.statusCode).toBe(200);
    expect(dl.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(String(dl.headers['content-disposition'])).toContain("filename*=UTF-8''%E8%B4%A6%E5%8D%95.xlsx");
    expect(Buffer.compare(dl.rawPayload, content)).toBe(0);
  });

  it('refuses a file over 5 MiB with the spec message', async () => {
    const big = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024, 0x20)]);
    const res = await pbl(ctx, demo).upload('big.pdf', big);
    expect(res.body).toMatchObject({ code: 400, msg: 'The size of uploaded file attachments cannot exceed 5M' });
    expect((await pbl(ctx, demo, 'zh').upload('big.pdf', big)).body.msg).toBe('上传的附件大小不能超过 5M');
    // exactly 5 MiB is allowed
    const edge = Buffer.concat([PDF, Buffer.alloc(5 * 1024 * 1024 - PDF.length, 0x20)]);
    expect((await pbl(ctx, demo).upload('edge.pdf', edge)).body.code).toBe(0);
  });

  it('refuses disguised files: an executable named .pdf, a PNG named .pdf, binary named .csv', async () => {
    expect((await pbl(ctx, demo).upload('invoice.pdf', EXE)).body).toMatchObject({ code: 400, msg: 'The file content does not match its type (pdf)' });
    expect((await pbl(ctx, demo).upload('invoice.pdf', PNG)).body.msg).toBe('The file content does not match its type (pdf)');
    expect((await pbl(ctx, demo).upload('data.csv', EXE)).body.msg).toBe('The file content does not match its type (csv)');
    expect((await pbl(ctx, demo).upload('report.xlsx', Buffer.concat([Buffer.from('PK\x03\x04'), Buffer.alloc(40)]))).body.code).toBe(400);
  });

  it('refuses other extensions and an empty request', async () => {
    expect((await pbl(ctx, demo).upload('tool.exe', EXE)).body.msg).toBe('Only xlsx, xls, csv, pdf, png and jpg files can be uploaded');
    expect((await pbl(ctx, demo).upload('notes.txt', CSV)).body.msg).toBe('Only xlsx, xls, csv, pdf, png and jpg files can be uploaded');
    const none = await ctx.call({ method: 'POST', url: '/api/payByLink/uploadFile', headers: { 'x-token': demo }, payload: { a: 1 } });
    expect(none.body).toMatchObject({ code: 400, msg: 'Upload failed, please choose a file' });
    const { rows } = await ctx.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM pay_by_link_attachment WHERE file_name IN ('tool.exe', 'invoice.pdf', 'big.pdf')`);
    expect(rows[0].n).toBe(0);
  });

  it('needs the create or update permission to upload', async () => {
    const res = await pbl(ctx, sub).upload('bill.pdf', PDF);
    expect(res.status).toBe(403);
  });

  it("downloads an order's bill for its merchant scope only; another merchant gets not-found", async () => {
    const up = await pbl(ctx, demo).upload('bill.pdf', PDF);
    const key = up.body.data.attachment;
    const ok = await pbl(ctx, demo).raw(`/api/payByLink/attachmentDownload?attachment=${key}`);
    expect(ok.headers['content-type']).toBe('application/pdf');
    expect(ok.rawPayload.toString('latin1')).toBe(PDF.toString('latin1'));
    expect((await pbl(ctx, other).get(`/api/payByLink/attachmentDownload?attachment=${key}`)).status).toBe(404);
    // the sub-merchant's user sees the file once it is attached to an order of its merchant
    expect((await pbl(ctx, sub).get(`/api/payByLink/attachmentDownload?attachment=${key}`)).status).toBe(404);
    const o = await createOrder(ctx, demo, { buyerEmail: 'b@example.com', sendEmailChecked: 'true', attachment: key });
    await ctx.db.query('UPDATE pay_by_link_order SET mer_id = $2 WHERE id = $1', [o.id, DEMO.subA]);
    expect((await pbl(ctx, sub).raw(`/api/payByLink/attachmentDownload?attachment=${key}`)).statusCode).toBe(200);
    expect((await pbl(ctx, demo).get('/api/payByLink/attachmentDownload?attachment=nope')).status).toBe(404);
  });
});
