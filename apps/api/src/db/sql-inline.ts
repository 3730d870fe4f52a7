import pg from 'pg';

/**
 * Values written into SQL text, for the few statements that cannot take bind parameters
 * (`COPY (SELECT …) TO STDOUT`). Every value becomes a quoted, untyped string literal: the server
 * resolves its type from the context exactly as it does for an untyped bind parameter, and the text
 * is what the `pg` driver would have sent as that parameter (dates as ISO instants, arrays as array
 * literals), so `inlineParams(w.sql, w.params)` selects the same rows as `query(w.sql, w.params)`.
 */

/** The text the driver sends for a parameter value (null: SQL NULL). */
function paramText(v: unknown): string | null {
  if (v === null || v === undefined) return null;
  if (typeof v === 'string') return v;
  if (typeof v === 'number') {
    if (!Number.isFinite(v)) throw new TypeError(`cannot inline the number ${v}`);
    return String(v);
  }
  if (typeof v === 'bigint' || typeof v === 'boolean') return String(v);
  if (v instanceof Date) {
    if (Number.isNaN(v.getTime())) throw new TypeError('cannot inline an invalid date');
    return v.toISOString();
  }
  if (Array.isArray(v)) return arrayText(v);
  if (Buffer.isBuffer(v) || ArrayBuffer.isView(v)) throw new TypeError('cannot inline binary data');
  return JSON.stringify(v);
}

/** A PostgreSQL array literal ('{"a","b",NULL}'), every element double-quoted and escaped. */
function arrayText(a: unknown[]): string {
  const parts = a.map((e) => {
    if (Array.isArray(e)) return arrayText(e);
    const s = paramText(e);
    return s === null ? 'NULL' : `"${s.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
  });
  return `{${parts.join(',')}}`;
}

const arrayTexts = new WeakMap<readonly string[], string>();
/**
 * The array literal the driver would send for `a`, built once per array object: a signed-in
 * user's merchant scope is one array for as long as its session is cached (plugins/auth.ts), and
 * a group's runs to dozens of ids, escaped anew on every list call otherwise.
 */
export function arrayParam(a: readonly string[]): string {
  let s = arrayTexts.get(a);
  if (s === undefined) arrayTexts.set(a, (s = arrayText(a as unknown[])));
  return s;
}

/** One value as a safe SQL literal: NULL or a quoted string (pg's escapeLiteral). */
export function sqlLiteral(v: unknown): string {
  const s = paramText(v);
  if (s === null) return 'NULL';
  if (s.includes('\0')) throw new TypeError('cannot inline a NUL character');
  return pg.escapeLiteral(s);
}

/**
 * `sql` with every placeholder `$n` replaced by `sqlLiteral(params[n - 1])`. Placeholders inside
 * quoted strings, quoted identifiers and comments are left alone; a placeholder without a value
 * throws (no statement is run with a hole in it).
 */
export function inlineParams(sql: string, params: readonly unknown[]): string {
  let out = '';
  let i = 0;
  const n = sql.length;
  const skipTo = (end: string, from: number): number => {
    const j = sql.indexOf(end, from);
    return j < 0 ? n : j + end.length;
  };
  while (i < n) {
    const c = sql[i];
    let j = i + 1;
    if (c === "'" && /[eE]/.test(sql[i - 1] ?? '') && !/[\w$]/.test(sql[i - 2] ?? '')) {
      // E'…': a backslash escapes the next character, a doubled quote stays inside.
      while (j < n && !(sql[j] === "'" && sql[j + 1] !== "'")) j += sql[j] === '\\' || sql[j] === "'" ? 2 : 1;
      j = Math.min(n, j + 1);
    } else if (c === "'" || c === '"') {
      // Quoted: a doubled quote stays inside.
      for (;;) {
        j = skipTo(c, j);
        if (j < n && sql[j] === c) j++;
        else break;
      }
    } else if (c === '-' && sql[i + 1] === '-') {
      j = sql.indexOf('\n', i);
      j = j < 0 ? n : j + 1;
    } else if (c === '/' && sql[i + 1] === '*') {
      j = skipTo('*/', i + 2);
    } else if (c === '$' && /[0-9]/.test(sql[i + 1] ?? '') && !/[\w$]/.test(sql[i - 1] ?? '')) {
      while (j < n && /[0-9]/.test(sql[j])) j++;
      const k = Number(sql.slice(i + 1, j));
      if (!(k >= 1 && k <= params.length)) throw new Error(`inlineParams: no value for $${k}`);
      out += sqlLiteral(params[k - 1]);
      i = j;
      continue;
    } else if (c === '$') {
      // A dollar-quoted string ($$…$$ or $tag$…$tag$): copied as is.
      const m = /^\$([A-Za-z_][\w]*)?\$/.exec(sql.slice(i));
      if (m && !/[\w$]/.test(sql[i - 1] ?? '')) j = skipTo(m[0], i + m[0].length);
    }
    out += sql.slice(i, j);
    i = j;
  }
  return out;
}
