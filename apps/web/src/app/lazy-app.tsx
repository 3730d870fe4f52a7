import { useContext, useEffect, useState, type ComponentType, type ReactNode } from 'react';
import AppContext, { type useAppProps } from 'antd/es/app/context';
import useAppStyle from 'antd/es/app/style';
import { ConfigContext } from 'antd/es/config-provider/context';

/**
 * antd's <App> (the context behind `App.useApp()`: message, modal, notification, and the root
 * element with its class and font), with the three hooks and their holders loaded when a screen
 * first shows one of them (issue 16, target 6). antd's own <App> imports all three with it: about
 * 25 KB gzip of notification, modal and message code on every first screen, which shows none of
 * them until someone exports, saves a view or hits an error. `App.useApp()` keeps working
 * everywhere: the context holds stand-ins that load the holders, then make the call.
 */
type Apis = useAppProps;
type Holders = ComponentType<{ onReady: (apis: Apis) => void }>;

let apis: Apis | null = null;
/** The mounted <LazyApp> whose holders `apis` belong to (each public page has its own providers). */
let owner: object | null = null;
let pending: { promise: Promise<Apis>; resolve: (a: Apis) => void; reject: (e: unknown) => void } | null = null;
/** Set by the mounted <LazyApp>: loads the holders' chunk and renders them. */
let mountHolders: (() => void) | null = null;

/** The real message/modal/notification, loading them the first time (rejects when the chunk cannot load). */
export function loadFeedback(): Promise<Apis> {
  if (apis) return Promise.resolve(apis);
  if (!pending) {
    let resolve!: (a: Apis) => void;
    let reject!: (e: unknown) => void;
    const promise = new Promise<Apis>((res, rej) => {
      resolve = res;
      reject = rej;
    });
    pending = { promise, resolve, reject };
    if (mountHolders) mountHolders();
    else {
      // A screen's effect runs before its ancestors' effects: on a page's first render (a message
      // shown on arrival, e.g. "WeChat bound." after the provider's redirect) <LazyApp> has not
      // registered yet. Its effect mounts the holders for a pending call; fail only if none did.
      setTimeout(() => {
        if (pending?.promise === promise && !mountHolders) fail(new Error('feedback used outside <LazyApp>'));
      }, 0);
    }
    return promise;
  }
  return pending.promise;
}

function fail(e: unknown) {
  const p = pending;
  // The next call tries again (e.g. the network is back).
  pending = null;
  p?.reject(e);
}

const METHODS = {
  message: ['open', 'info', 'success', 'error', 'warning', 'loading', 'destroy'],
  modal: ['confirm', 'info', 'success', 'error', 'warning'],
  notification: ['open', 'info', 'success', 'error', 'warning', 'destroy'],
} as const;

type Kind = keyof typeof METHODS;

/** Calls `method` of the real `kind` at once when loaded, else once loaded. */
function standIn<K extends Kind>(kind: K): Apis[K] {
  const out: Record<string, (...args: unknown[]) => unknown> = {};
  for (const method of METHODS[kind]) {
    out[method] = (...args) => {
      const call = (a: Apis) => (a[kind] as unknown as Record<string, (...x: unknown[]) => unknown>)[method](...args);
      if (apis) return call(apis);
      // Nothing shown yet: nothing to close.
      if (method === 'destroy') return undefined;
      loadFeedback().then(call, () => undefined);
      return undefined;
    };
  }
  return out as unknown as Apis[K];
}

const standIns: Apis = { message: standIn('message'), modal: standIn('modal'), notification: standIn('notification') };

export function LazyApp({ children }: { children: ReactNode }) {
  const { getPrefixCls } = useContext(ConfigContext);
  const prefixCls = getPrefixCls('app');
  const [hashId, cssVarCls] = useAppStyle(prefixCls);
  const [Holders, setHolders] = useState<Holders | null>(null);
  // This instance's identity, and the callback its holders report to.
  const [self] = useState(() => ({
    onReady(real: Apis) {
      apis = real;
      owner = self;
      pending?.resolve(real);
      pending = null;
    },
  }));
  useEffect(() => {
    const mount = () => {
      import('./feedback-holders').then(
        (m) => setHolders(() => m.default),
        (e: unknown) => fail(e),
      );
    };
    mountHolders = mount;
    if (pending) mount();
    return () => {
      if (mountHolders === mount) mountHolders = null;
      // Going to a page with providers of its own: its holders are not these (they unmount now).
      if (owner === self) {
        apis = null;
        owner = null;
      }
    };
  }, [self]);
  return (
    <AppContext.Provider value={standIns}>
      <div className={[hashId, prefixCls, cssVarCls].filter(Boolean).join(' ')}>
        {Holders && <Holders onReady={self.onReady} />}
        {children}
      </div>
    </AppContext.Provider>
  );
}

/** `App.useApp()` without antd's <App> module: message, modal and notification of the screen's context. */
export const useApp = (): Apis => useContext(AppContext);
