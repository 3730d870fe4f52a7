import { describe, expect, it } from 'vitest';
import type { MessageInstance } from 'antd/es/message/interface';
import { withErrorsClearedBySuccess } from './feedback';

/** A message API that records what is on screen by key. */
function fakeMessage() {
  const open = new Map<string | number, { type: string; content: unknown; onClose?: () => void }>();
  const show = (type: string) => (a: unknown) => {
    const p = (typeof a === 'object' && a !== null ? a : { content: a }) as { key?: string | number; content: unknown; onClose?: () => void };
    open.set(p.key ?? `${type}-${open.size}`, { type, content: p.content, onClose: p.onClose });
    return Object.assign(Promise.resolve(true), {}) as never;
  };
  const m = {
    error: show('error'),
    success: show('success'),
    info: show('info'),
    warning: show('warning'),
    loading: show('loading'),
    open: show('open'),
    destroy: (key?: string | number) => (key === undefined ? open.clear() : open.delete(key)),
  } as unknown as MessageInstance;
  return { m, open };
}

describe('toasts (issue 53)', () => {
  it('a success closes the error toasts still shown, keyed or not, and keeps its own', () => {
    const { m, open } = fakeMessage();
    const msg = withErrorsClearedBySuccess(m);
    msg.error({ content: 'Wrong password', key: 'err:Wrong password', duration: 30 });
    msg.error('Code expired');
    msg.info('Working…');
    expect([...open.values()].map((x) => x.content)).toEqual(['Wrong password', 'Code expired', 'Working…']);
    msg.success('Refund submitted');
    expect([...open.values()].map((x) => x.content)).toEqual(['Working…', 'Refund submitted']);
  });

  it('forgets an error toast that closed by itself, and keeps its onClose', () => {
    const { m, open } = fakeMessage();
    const msg = withErrorsClearedBySuccess(m);
    let closed = 0;
    msg.error({ content: 'Bad code', onClose: () => closed++ });
    const [key, shown] = [...open.entries()][0];
    shown.onClose?.();
    open.delete(key);
    expect(closed).toBe(1);
    msg.success('Saved');
    expect([...open.values()].map((x) => x.content)).toEqual(['Saved']);
  });
});
