const loading = new Map<string, Promise<void>>();

/**
 * Loads a stylesheet ahead of every other one in the document (as the first child of <head>), once
 * per URL; resolves when it has loaded, or failed (the page then draws unstyled rather than not at
 * all). Used for antd's component styles (decision 031): first in the cascade, as antd's run-time
 * styles were, so the portal's own rules of the same specificity keep winning.
 */
export function prependStylesheet(href: string): Promise<void> {
  let done = loading.get(href);
  // On the server (decision 050) the page's <head> is written by the API: nothing to load.
  if (typeof document === 'undefined') return Promise.resolve();
  if (!done) {
    // A page rendered on the server has the stylesheet in its <head> already.
    const written = document.querySelector<HTMLLinkElement>(`link[rel="stylesheet"][href="${href}"]`);
    if (written?.sheet) {
      done = Promise.resolve();
      loading.set(href, done);
      return done;
    }
    const link = document.createElement('link');
    link.rel = 'stylesheet';
    link.href = href;
    done = new Promise<void>((resolve) => {
      link.onload = () => resolve();
      link.onerror = () => resolve();
    });
    document.head.prepend(link);
    loading.set(href, done);
  }
  return done;
}
