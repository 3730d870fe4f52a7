import fs from 'node:fs';
import path from 'node:path';

/** The largest resident regions of a process, grouped by what maps them (Linux). */
export function smapsSummary(pid: number): string {
  const text = fs.readFileSync(`/proc/${pid}/smaps`, 'utf8');
  const groups = new Map<string, { kb: number; n: number }>();
  let name = '';
  for (const line of text.split('\n')) {
    const head = /^([0-9a-f]+)-([0-9a-f]+) \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (head) {
      name = head[3] || '[anonymous]';
      // Anonymous regions by their size: V8's pages (256 KB), malloc's arenas (64 MB), larger ones.
      if (!head[3]) {
        const kb = (parseInt(head[2], 16) - parseInt(head[1], 16)) / 1024;
        name = `[anonymous ${kb <= 256 ? '≤256K' : kb <= 2048 ? '≤2M' : kb <= 65536 ? '≤64M' : '>64M'}]`;
      }
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) {
      const g = groups.get(name) ?? { kb: 0, n: 0 };
      g.kb += Number(rss[1]);
      g.n++;
      groups.set(name, g);
    }
  }
  const top = [...groups].sort((a, b) => b[1].kb - a[1].kb).slice(0, 8);
  return `  regions by RSS: ${top.map(([k, g]) => `${path.basename(k)} ${Math.round(g.kb / 1024)} MB (${g.n})`).join(', ')}`;
}
