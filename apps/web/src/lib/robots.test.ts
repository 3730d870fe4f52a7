import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** public/robots.txt, served at /robots.txt (before it, the SPA's index.html answered: Lighthouse SEO, "robots.txt is not valid"). */
const robots = fs.readFileSync(path.resolve(import.meta.dirname, '../../public/robots.txt'), 'utf8');

describe('robots.txt (issue 52: Lighthouse SEO)', () => {
  const rules = robots
    .split('\n')
    .map((l) => l.replace(/#.*/, '').trim())
    .filter(Boolean);

  it('holds only directives a crawler understands', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const r of rules) expect(r).toMatch(/^(User-agent|Allow|Disallow|Sitemap):\s*\S*$/i);
    expect(rules[0]).toMatch(/^User-agent:/i);
  });

  it('keeps the API and the development pages out, and no page of the portal (not the sign-in page)', () => {
    const disallowed = rules.filter((r) => /^Disallow:/i.test(r)).map((r) => r.replace(/^Disallow:\s*/i, ''));
    expect(disallowed).toEqual(expect.arrayContaining(['/api/', '/dev/']));
    for (const page of ['/', '/login', '/txn/list']) expect(disallowed.some((d) => d !== '' && page.startsWith(d))).toBe(false);
  });
});
