/**
 * Notices from the command line — the back office's notice screen (decision 044) without the screen;
 * both call createNotice of modules/ops/notices.service.ts:
 *   npm run publish-notice -- --title "New fee schedule" --file ./schedule.pdf [--file more.csv]
 *                             [--merchant 100000000000001 [--merchant …] | --group 100000000000000]
 *                             [--at "2026-12-01 09:00:00" --tz Asia/Shanghai]
 *                             [--summary "…"] [--content "…"] [--level important]
 * Without --merchant or --group the notice goes to every merchant; without --at it is published now
 * (--tz defaults to the platform zone). Attachments (PDF, CSV, PNG, JPG, 20 MiB each) show on the
 * notice's detail page and in /files. Uses DATABASE_URL or the PGlite data directory, like the server.
 */
import { readFileSync } from 'node:fs';
import { opsNoticeSchema } from '@portal/contract';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { AppError } from '../lib/errors';
import { t } from '../lib/messages';
import { createNotice } from '../modules/ops/notices.service';
// The modules' message catalogues (lib/messages.ts names no module).
import '../modules/messages';

const USAGE = 'usage: npm run publish-notice -- --title T [--file PATH]… [--merchant ID]… | [--group ID] [--at "yyyy-MM-dd HH:mm:ss" [--tz ZONE]] [--summary S] [--content C] [--level info|important]';
const argv = process.argv.slice(2);
const files: string[] = [];
const merchants: string[] = [];
const opts: Record<string, string> = {};
for (let i = 0; i < argv.length; i++) {
  const k = argv[i];
  const v = argv[i + 1];
  if (!k.startsWith('--') || v === undefined) {
    console.error(USAGE);
    process.exit(2);
  }
  if (k === '--file') files.push(v);
  else if (k === '--merchant') merchants.push(v);
  else opts[k.slice(2)] = v;
  i++;
}
const config = loadConfig();
const input = opsNoticeSchema.safeParse({
  title: opts.title,
  summary: opts.summary,
  content: opts.content ?? opts.summary ?? opts.title,
  level: opts.level,
  target: opts.group ? 'group' : merchants.length ? 'merchants' : 'all',
  merchants,
  groupId: opts.group,
  publishAt: opts.at,
  timeZone: opts.at ? (opts.tz ?? config.platformTz) : undefined,
  files: files.map((f) => ({ name: f, contentBase64: readFileSync(f).toString('base64') })),
});
if (!input.success || (opts.group && merchants.length)) {
  console.error(input.success ? '--merchant and --group exclude each other' : input.error.issues.map((i) => `--${String(i.path[0] ?? '')}: ${i.message}`).join('\n'));
  console.error(USAGE);
  process.exit(2);
}
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const res = await createNotice({ db, dataDir: config.dataDir, now: new Date() }, input.data, { cli: true }, {});
  console.log(`notice ${res.id} ${res.status} (${res.publishedAt}) with ${res.attachments.length} attachment(s)`);
} catch (err) {
  console.error(err instanceof AppError ? t('en', err.key, err.params) : (err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
