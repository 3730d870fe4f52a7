import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sourceFiles, WEB_SRC } from './source-files.test-helper';

/**
 * The web writes no API URL by hand (issue 45 §3, decision 074): every call goes through a
 * descriptor of packages/contract/src/endpoints (`http.call`, `opsHttp.call`, `callPublic`).
 */
const SRC = WEB_SRC;
const files = sourceFiles;

/** Lines that name an API base, not an endpoint: each says why. */
const ALLOWED: Record<string, string> = {
  "baseUrl: '/api/ops',": "the back office's client base (its descriptors' paths start with it)",
};

describe('no hand-written API URLs in apps/web/src', () => {
  it('no http/opsHttp get, post, upload, file, request or envelope call; no /api path in a string', () => {
    const found: string[] = [];
    for (const f of files(SRC)) {
      const text = fs.readFileSync(f, 'utf8');
      text.split('\n').forEach((line, i) => {
        if (ALLOWED[line.trim()]) return;
        if (/\b(http|opsHttp)\.(get|post|upload|file|request|envelope)\b/.test(line) || /['"`]\/api\//.test(line) || /fetch\(\s*['"`]\//.test(line))
          found.push(`${path.relative(SRC, f)}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(found).toEqual([]);
  });
});
