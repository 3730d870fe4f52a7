/**
 * Registers the service worker (public/sw.js: the offline page and the icons, never an API answer)
 * from the phone home screen, in the built app only: the development server's modules are not
 * something to keep.
 */
export function registerServiceWorker(): void {
  if (!import.meta.env.PROD || typeof navigator === 'undefined' || !('serviceWorker' in navigator)) return;
  // After the first paint and the screen's first requests: nothing of it is needed to draw the screen.
  const go = () => void navigator.serviceWorker.register('/sw.js', { scope: '/' }).catch(() => undefined);
  if (document.readyState === 'complete') setTimeout(go, 0);
  else window.addEventListener('load', go, { once: true });
}
