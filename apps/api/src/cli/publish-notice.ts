/**
 * The provider's back office, from the command line (stands in for its notice editor):
 *   npm run publish-notice -- --title "New fee schedule" --file ./schedule.pdf [--file more.csv]
 *                             [--merchant 100000000000001] [--summary "…"] [--content "…"] [--level important]
 * Without --merchant the notice goes to every merchant. Attachments (PDF, CSV, PNG, JPG) show on the
 * notice's detail page and in /files. Uses DATABASE_URL or the PGlite data directory, like the server.
 */
import { readFileSync } from 'node:fs';
import { loadConfig } from '../config';
import { openDb } from '../db/db';
import { migrate } from '../db/migrate';
import { publishNotice } from '../modules/notice/attachment.service';

const argv = process.argv.slice(2);
const files: string[] = [];
const opts: Record<string, string> = {};
for (let i = 0; i < argv.length; i++) {
  const k = argv[i];
  const v = argv[i + 1];
  if (!k.startsWith('--') || v === undefined) {
    console.error('usage: npm run publish-notice -- --title T --file PATH [--file PATH] [--merchant ID] [--summary S] [--content C] [--level info|important]');
    process.exit(2);
  }
  if (k === '--file') files.push(v);
  else opts[k.slice(2)] = v;
  i++;
}
if (!opts.title || (opts.level && !['info', 'important'].includes(opts.level)) || (opts.merchant && !/^\d{15}$/.test(opts.merchant))) {
  console.error('--title is required; --level info|important; --merchant a 15-digit merchant id');
  process.exit(2);
}
const config = loadConfig();
const db = await openDb({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
try {
  await migrate(db);
  const res = await publishNotice(
    db,
    config.dataDir,
    {
      title: opts.title, summary: opts.summary, content: opts.content, level: opts.level as 'info' | 'important' | undefined, merId: opts.merchant ?? null,
      files: files.map((f) => ({ name: f, body: readFileSync(f) })),
    },
    new Date(),
  );
  console.log(`notice ${res.id} published with ${res.attachments.length} attachment(s)`);
} catch (err) {
  console.error((err as Error).message);
  process.exitCode = 1;
} finally {
  await db.close();
}
