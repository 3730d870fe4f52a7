/**
 * The API exactly as `npm run serve` runs it (apps/api/dist/server.mjs under plain Node, one
 * process; this file is run by Node's own type stripping, no loader), for
 * `npm run bench -- memory`: memory.bench.ts starts it with `--expose-gc` and an IPC channel, its
 * settings in the environment (PORT, DATA_DIR, DATABASE_URL…). Once the server listens it sends
 * {ready: true}; on {gc: true} it runs full collections and answers {memory: process.memoryUsage()};
 * on {heapSnapshot: file} it writes a V8 heap snapshot there (for a closer look: MEMORY_HEAP_SNAPSHOT).
 */
import v8 from 'node:v8';

// A path, not a literal: the bundle is built (memory.bench.ts), it has no types.
const bundle = '../apps/api/dist/server.mjs';
await import(bundle);
const send = (m: unknown) => process.send?.(m);
process.on('message', (m: { gc?: boolean; heapSnapshot?: string }) => {
  if (m.gc) {
    // Twice, a turn apart: the first may only queue what the second frees (finalizers, weak references).
    globalThis.gc?.();
    setTimeout(() => {
      globalThis.gc?.();
      send({ memory: process.memoryUsage(), heap: v8.getHeapStatistics(), spaces: v8.getHeapSpaceStatistics() });
    }, 100);
  } else if (m.heapSnapshot) {
    send({ heapSnapshot: v8.writeHeapSnapshot(m.heapSnapshot) });
  }
});
send({ ready: true, memory: process.memoryUsage() });
