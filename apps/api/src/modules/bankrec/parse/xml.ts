import { SaxesParser } from 'saxes';
import { StatementRefused } from './errors';

/** An element of the statement's XML: local name, attributes, children, its own text, its line. */
export interface XmlNode {
  name: string;
  ns: string;
  attrs: Record<string, string>;
  children: XmlNode[];
  text: string;
  line: number;
  /** Its path, e.g. `Document/BkToCstmrStmt/Stmt[2]/Ntry[14]` (1-based among same-named siblings). */
  path: string;
}

const MAX_DEPTH = 64;
const MAX_NODES = 4_000_000;

/**
 * Reads XML into a small tree with saxes (a conforming, non-validating XML parser). Refused: any
 * DOCTYPE (so no entity declarations at all — billion laughs, external entities and DTD fetches
 * cannot happen; camt.053 never carries one), malformed XML, undefined entities (saxes knows only
 * the five predefined ones and character references), an encoding other than UTF-8 declared,
 * nesting deeper than 64, more than 4 million elements.
 */
export function parseXml(text: string): XmlNode {
  const parser = new SaxesParser({ xmlns: true, position: true });
  const root: XmlNode = { name: '#root', ns: '', attrs: {}, children: [], text: '', line: 0, path: '' };
  const stack: XmlNode[] = [root];
  const counts: Map<string, number>[] = [new Map()];
  let nodes = 0;
  let failure: StatementRefused | null = null;
  const fail = (e: StatementRefused) => {
    failure ??= e;
    throw e;
  };
  parser.on('xmldecl', (d) => {
    if (d.encoding && d.encoding.toUpperCase() !== 'UTF-8') fail(new StatementRefused('bankFileEncoding', { encoding: d.encoding }));
  });
  parser.on('doctype', () => fail(new StatementRefused('bankXmlDoctype', { line: parser.line })));
  parser.on('error', (err) => fail(new StatementRefused('bankXmlMalformed', { line: parser.line, reason: String(err.message).slice(0, 160) })));
  parser.on('opentag', (tag) => {
    if (stack.length > MAX_DEPTH || ++nodes > MAX_NODES) fail(new StatementRefused('bankXmlMalformed', { line: parser.line, reason: 'too deep or too large' }));
    const parent = stack[stack.length - 1];
    const seen = counts[counts.length - 1];
    const n = (seen.get(tag.local) ?? 0) + 1;
    seen.set(tag.local, n);
    const attrs: Record<string, string> = {};
    for (const a of Object.values(tag.attributes)) if (!a.prefix || a.prefix !== 'xmlns') attrs[a.local] = a.value;
    const node: XmlNode = { name: tag.local, ns: tag.uri, attrs, children: [], text: '', line: parser.line, path: `${parent.path ? `${parent.path}/` : ''}${tag.local}${n > 1 ? `[${n}]` : ''}` };
    parent.children.push(node);
    stack.push(node);
    counts.push(new Map());
  });
  parser.on('closetag', () => {
    stack.pop();
    counts.pop();
  });
  parser.on('text', (t) => {
    const cur = stack[stack.length - 1];
    if (cur !== root) cur.text += t;
  });
  parser.on('cdata', (t) => {
    const cur = stack[stack.length - 1];
    if (cur !== root) cur.text += t;
  });
  try {
    parser.write(text).close();
  } catch (e) {
    if (failure) throw failure;
    if (e instanceof StatementRefused) throw e;
    throw new StatementRefused('bankXmlMalformed', { line: parser.line, reason: String((e as Error).message).slice(0, 160) });
  }
  if (failure) throw failure;
  const doc = root.children[0];
  if (!doc) throw new StatementRefused('bankXmlMalformed', { line: 1, reason: 'no root element' });
  return doc;
}

/** The children named `name`. */
export const all = (n: XmlNode | undefined, name: string): XmlNode[] => (n ? n.children.filter((c) => c.name === name) : []);
/** The first child at the path `a/b/c`, if any. */
export function get(n: XmlNode | undefined, path: string): XmlNode | undefined {
  let cur = n;
  for (const p of path.split('/')) {
    cur = cur?.children.find((c) => c.name === p);
    if (!cur) return undefined;
  }
  return cur;
}
/** The trimmed text at a path, or null when absent or empty. */
export function textAt(n: XmlNode | undefined, path: string): string | null {
  const t = get(n, path)?.text.trim();
  return t ? t : null;
}
/** A position for messages: the element's path and line. */
export const where = (n: XmlNode) => `${n.path} (line ${n.line})`;
