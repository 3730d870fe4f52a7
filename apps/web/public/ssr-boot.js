/*
 * A page rendered on the server (decision 050) loads the app's script after its first paint: the
 * stylesheets the paint waits for do not share a slow line with ~400 KB of script. A hidden page
 * (a background tab) has no paint to wait for. The API's page plugin writes the entry's address in
 * data-main; the CSP allows no inline script, hence this file.
 */
(function () {
  var me = document.currentScript;
  var src = me && me.getAttribute('data-main');
  if (!src) return;
  function load() {
    var s = document.createElement('script');
    s.type = 'module';
    s.crossOrigin = 'anonymous';
    s.src = src;
    document.head.appendChild(s);
  }
  if (document.visibilityState === 'hidden') load();
  else
    requestAnimationFrame(function () {
      setTimeout(load, 0);
    });
})();
