/**
 * Writes the PWA's PNG icons (apps/web/public/icons) from the SVG sources beside this file with
 * Chromium (headless, transparent background): `npx tsx apps/web/build/icons/render.ts`.
 * The PNGs are committed; run this again only when an SVG changes.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';

const OUT = path.resolve(import.meta.dirname, '../../public/icons');
const jobs: [string, number, string][] = [
  ['icon.svg', 192, 'icon-192.png'],
  ['icon.svg', 512, 'icon-512.png'],
  ['icon-maskable.svg', 512, 'icon-maskable-512.png'],
  ['icon-maskable.svg', 180, 'apple-touch-icon.png'],
];
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM ?? '/usr/bin/chromium', args: ['--no-sandbox'] });
try {
  for (const [src, size, out] of jobs) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    const svg = fs.readFileSync(path.join(import.meta.dirname, src), 'utf8');
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg.replace('<svg ', `<svg width="${size}" height="${size}" `)}</body></html>`);
    fs.mkdirSync(OUT, { recursive: true });
    await page.screenshot({ path: path.join(OUT, out), omitBackground: true });
    await page.close();
  }
} finally {
  await browser.close();
}
