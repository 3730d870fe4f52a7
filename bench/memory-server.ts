/**
 * The API as `npm run serve` runs it (apps/api/src/server.ts, one process), for `npm run bench --
 * memory`: started by memory.bench.ts with `--expose-gc` and an IPC channel. Once the server
 * listens it sends {ready: true}; on {gc: true} it runs two full collections and answers
 * {memory: process.memoryUsage()}; on {heapSnapshot: file} it writes a V8 heap snapshot there.
 */
import v8 from 'node:v8';

await import('../apps/api/src/server');
const send = (m: unknown) => process.send?.(m);
process.on('message', (m: { gc?: boolean; heapSnapshot?: string }) => {
  if (m.gc) {
    // Two passes: the first may only finalise what the second frees (weak references, finalizers).
    globalThis.gc?.();
    setImmediate(() => {
      globalThis.gc?.();
      send({ memory: process.memoryUsage() });
    });
  } else if (m.heapSnapshot) {
    send({ heapSnapshot: v8.writeHeapSnapshot(m.heapSnapshot) });
  }
});
send({ ready: true, memory: process.memoryUsage() });
