import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Files worth compressing: text the browser fetches. Images and fonts are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|map|xml|webmanifest)$/;
/** Below this a compressed copy saves less than the header and lookup cost. */
const MIN_BYTES = 1024;

function* filesUnder(dir: string): Generator<string> {
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) yield* filesUnder(p);
    else if (COMPRESSIBLE.test(e.name)) yield p;
  }
}

/**
 * Writes `file.br` (brotli, best quality) and `file.gz` (gzip level 9) beside every compressible
 * file of the build, once, so the server (@fastify/static `preCompressed`) answers by content
 * negotiation without compressing anything at run time. A copy that is not smaller is not written.
 */
export function precompress(): Plugin {
  let outDir = '';
  return {
    name: 'portal-precompress',
    apply: 'build',
    configResolved(c) {
      outDir = path.resolve(c.root, c.build.outDir);
    },
    closeBundle() {
      let files = 0;
      for (const f of filesUnder(outDir)) {
        const raw = fs.readFileSync(f);
        if (raw.length < MIN_BYTES) continue;
        const br = zlib.brotliCompressSync(raw, {
          params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
        });
        const gz = zlib.gzipSync(raw, { level: 9 });
        if (br.length < raw.length) fs.writeFileSync(`${f}.br`, br);
        if (gz.length < raw.length) fs.writeFileSync(`${f}.gz`, gz);
        files++;
      }
      this.info?.(`precompressed ${files} files (brotli + gzip)`);
    },
  };
}
