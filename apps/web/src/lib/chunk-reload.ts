/**
 * After a deploy, a browser that still runs the previous build asks for chunks whose hashed names
 * are gone (issue 45 §4). The first such failure reloads the page once, which fetches the new
 * build's index and chunks; a second one within a minute (the chunk is really missing, or the
 * network is down) is left to the error boundary, which says so — never a reload loop.
 */
const KEY = 'portal:chunk-reload-at';
const WINDOW_MS = 60_000;

/** Whether `e` is the browser's or Vite's "could not load a module/stylesheet chunk" error. */
export function isChunkError(e: unknown): boolean {
  const msg = e instanceof Error ? `${e.name} ${e.message}` : String(e);
  return /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|ChunkLoadError/i.test(msg);
}

let started = false;
/** Whether this page is already reloading for a missing chunk (the boundary then draws nothing). */
export const reloadingForChunk = (): boolean => started;

/** Starts one reload unless one was made for a chunk in the last minute; true when it did. */
export function reloadOnceForChunk(now = Date.now(), storage: Pick<Storage, 'getItem' | 'setItem'> = sessionStorage, reload = () => window.location.reload()): boolean {
  let last = 0;
  try {
    last = Number(storage.getItem(KEY) ?? 0) || 0;
  } catch {
    // Storage refused (private mode): reload at most never, rather than in a loop.
    return false;
  }
  if (now - last < WINDOW_MS && now >= last) return false;
  try {
    storage.setItem(KEY, String(now));
  } catch {
    return false;
  }
  started = true;
  reload();
  return true;
}

/** Vite's `vite:preloadError` (a chunk or its CSS failed to load): reload once instead of failing. */
export function installChunkReloadGuard(): void {
  window.addEventListener('vite:preloadError', (event) => {
    if (reloadOnceForChunk()) event.preventDefault();
  });
}
