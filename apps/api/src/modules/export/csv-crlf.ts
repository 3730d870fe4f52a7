/** Record terminators of PostgreSQL's CSV (LF) made into the JS writer's (CRLF), as bytes stream by. */
import { Transform, type TransformCallback } from 'node:stream';

const LF = 0x0a;
const CR = 0x0d;
const QUOTE = 0x22;

/**
 * PostgreSQL's CSV ends records with LF, the JS writer (RFC 4180) with CRLF: this puts a CR before
 * every LF that ends a record — not those inside a quoted field, which stay as they are — and counts
 * the records (`rows`). Bytes, not characters: chunks may split anywhere, quote state carries over.
 * Output goes out in blocks of `block` bytes (fewer, larger writes downstream; the copy that inserts
 * the CRs is the one that fills them).
 */
export class CsvLfToCrlf extends Transform {
  rows = 0;
  private quoted = false;
  private readonly at: number[] = [];
  private buf: Buffer;
  private used = 0;

  constructor(
    private readonly onRows?: (rows: number) => Promise<void> | void,
    private readonly block = 1 << 16,
  ) {
    super();
    this.buf = Buffer.allocUnsafe(block);
  }

  /** Offsets of the record-ending LFs of `b`; updates the quote state. */
  private scan(b: Buffer): number[] {
    const at = this.at;
    at.length = 0;
    const n = b.length;
    let quoted = this.quoted;
    let q = b.indexOf(QUOTE);
    let lf = -2; // -2: not searched yet, -1: none left
    let pos = 0;
    while (pos < n) {
      if (quoted) {
        if (q < 0) break;
        quoted = false;
        pos = q + 1;
        q = b.indexOf(QUOTE, pos);
        continue;
      }
      if (lf !== -1 && lf < pos) lf = b.indexOf(LF, pos);
      if (q >= 0 && (lf < 0 || q < lf)) {
        quoted = true;
        pos = q + 1;
        q = b.indexOf(QUOTE, pos);
        continue;
      }
      if (lf < 0) break;
      at.push(lf);
      pos = lf + 1;
    }
    this.quoted = quoted;
    return at;
  }

  /** Appends b[from, to) to the block, pushing full blocks. */
  private put(b: Buffer, from: number, to: number): void {
    while (from < to) {
      const n = Math.min(to - from, this.block - this.used);
      b.copy(this.buf, this.used, from, from + n);
      this.used += n;
      from += n;
      if (this.used === this.block) this.pushBlock();
    }
  }

  private putCr(): void {
    this.buf[this.used++] = CR;
    if (this.used === this.block) this.pushBlock();
  }

  private pushBlock(): void {
    if (!this.used) return;
    this.push(this.used === this.block ? this.buf : this.buf.subarray(0, this.used));
    this.buf = Buffer.allocUnsafe(this.block);
    this.used = 0;
  }

  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    const at = this.scan(chunk);
    this.rows += at.length;
    let from = 0;
    for (const p of at) {
      this.put(chunk, from, p);
      this.putCr();
      from = p;
    }
    this.put(chunk, from, chunk.length);
    const p = this.onRows?.(this.rows);
    if (p) p.then(() => cb(), cb);
    else cb();
  }

  override _flush(cb: TransformCallback): void {
    this.pushBlock();
    cb();
  }
}
