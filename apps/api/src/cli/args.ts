/** Tiny argument parser of the CLIs: --name value, --flag. */
export function parseArgs(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) throw new Error(`unexpected argument ${a}`);
    const [k, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) out[k] = inline;
    else if (i + 1 < argv.length && !argv[i + 1].startsWith('--')) out[k] = argv[++i];
    else out[k] = true;
  }
  return out;
}

export function intArg(args: Record<string, string | true>, name: string, def: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
  const v = args[name];
  if (v === undefined) return def;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) throw new Error(`--${name} must be an integer between ${min} and ${max}`);
  return n;
}

/** A progress bar on a terminal (nothing when output is not a TTY, e.g. in CI logs). */
export function progressBar(label: string) {
  const tty = process.stdout.isTTY;
  const started = Date.now();
  let last = 0;
  return {
    update(done: number, total: number, extra = '') {
      if (!tty) return;
      const now = Date.now();
      if (now - last < 80 && done < total) return;
      last = now;
      const width = 30;
      const filled = total ? Math.round((done / total) * width) : width;
      const pct = total ? Math.floor((done / total) * 100) : 100;
      const secs = ((now - started) / 1000).toFixed(1);
      process.stdout.write(`\r${label} [${'█'.repeat(filled)}${'░'.repeat(width - filled)}] ${String(pct).padStart(3)}% ${done}/${total} ${extra} ${secs}s\x1b[K`);
    },
    done() {
      if (tty) process.stdout.write('\n');
    },
  };
}
