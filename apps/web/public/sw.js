/*
 * The portal's service worker (decision 042), registered by the phone home screen (/m).
 * It keeps the offline page, the manifest and the icons, so the installed app starts without a
 * network and says it is offline. It never answers, nor keeps, anything under /api/: signed-in
 * figures stay between the browser and the server (their answers say Cache-Control: no-store).
 * Pages come from the network; only when that fails is the offline page shown. Scripts and styles
 * are left to the HTTP cache (their names carry their hash, served immutable).
 */
const CACHE = 'mp-shell-v1';
const SHELL = ['/offline.html', '/offline.js', '/manifest.webmanifest', '/favicon.svg', '/icons/icon-192.png', '/icons/icon-512.png', '/icons/icon-maskable-512.png'];

self.addEventListener('install', (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL.map((url) => new Request(url, { cache: 'reload' }))))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener('activate', (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((k) => k.startsWith('mp-shell-') && k !== CACHE).map((k) => caches.delete(k))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener('fetch', (event) => {
  const req = event.request;
  if (req.method !== 'GET') return;
  const url = new URL(req.url);
  if (url.origin !== self.location.origin) return;
  // The API: never touched (the browser asks the server, as without a worker).
  if (url.pathname.startsWith('/api/')) return;
  if (req.mode === 'navigate') {
    event.respondWith(
      fetch(req).catch(() => caches.match('/offline.html').then((page) => page || new Response('Offline', { status: 503, headers: { 'Content-Type': 'text/plain; charset=utf-8' } }))),
    );
    return;
  }
  if (SHELL.includes(url.pathname)) {
    event.respondWith(caches.match(url.pathname).then((hit) => hit || fetch(req)));
  }
});
