import { describe, expect, it } from 'vitest';
import { isChunkError, reloadOnceForChunk } from './chunk-reload';

function memory() {
  const m = new Map<string, string>();
  return { getItem: (k: string) => m.get(k) ?? null, setItem: (k: string, v: string) => void m.set(k, v) };
}

describe('the reload-once guard for chunks missing after a deploy', () => {
  it('tells chunk failures of Chromium, Firefox, Safari and Vite from other errors', () => {
    expect(isChunkError(new TypeError('Failed to fetch dynamically imported module: http://x/assets/a-1.js'))).toBe(true);
    expect(isChunkError(new TypeError('error loading dynamically imported module: http://x/a.js'))).toBe(true);
    expect(isChunkError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkError(new Error('Unable to preload CSS for /assets/a.css'))).toBe(true);
    expect(isChunkError(new TypeError("Cannot read properties of undefined (reading 'rows')"))).toBe(false);
    expect(isChunkError('boom')).toBe(false);
  });

  it('reloads once, then not again within a minute, then again after it', () => {
    const storage = memory();
    let reloads = 0;
    const reload = () => void reloads++;
    expect(reloadOnceForChunk(1_000_000, storage, reload)).toBe(true);
    expect(reloadOnceForChunk(1_000_000 + 59_999, storage, reload)).toBe(false);
    expect(reloads).toBe(1);
    expect(reloadOnceForChunk(1_000_000 + 60_000, storage, reload)).toBe(true);
    expect(reloads).toBe(2);
  });

  it('a clock set back does not stop it for ever; refused storage never loops', () => {
    const storage = memory();
    storage.setItem('portal:chunk-reload-at', String(5_000_000));
    expect(reloadOnceForChunk(1_000, storage, () => undefined)).toBe(true);
    const refusing = {
      getItem: () => {
        throw new Error('denied');
      },
      setItem: () => {
        throw new Error('denied');
      },
    };
    expect(
      reloadOnceForChunk(1_000, refusing, () => {
        throw new Error('must not reload');
      }),
    ).toBe(false);
  });
});
