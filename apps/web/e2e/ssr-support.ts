import { expect, type BrowserContext, type Page, type Response } from '@playwright/test';

/*
 * The e2e suite and the pages the server renders (decision 050): the wait after each navigation,
 * the contexts that run no script, the answers that came with a page, the takeover.
 * support.ts re-exports what the specs use.
 */

/** Contexts with JavaScript turned off: their server-rendered pages stay as they came. */
export const noScript = new WeakSet<BrowserContext>();

/**
 * A page the server rendered (decision 050) is inert until its screen has hydrated: a person cannot
 * focus, type or click into it before then, so neither does a spec. Every navigation of the page
 * (goto, reload, back, forward) returns once the screen takes input; a plain page is not waited for.
 */
export function waitForTakeover(page: Page) {
  for (const name of ['goto', 'reload', 'goBack', 'goForward'] as const) {
    const original = (page[name] as (...a: unknown[]) => Promise<Response | null>).bind(page);
    (page as unknown as Record<string, unknown>)[name] = async (...args: unknown[]) => {
      const res = await original(...args);
      if (res && !noScript.has(page.context()) && (res.headers()['content-type'] ?? '').startsWith('text/html') && (res.headers()['cache-control'] ?? '') === 'private, no-store') {
        await expect(page.locator('#root')).not.toHaveClass(/ssr-pending/, { timeout: 30_000 });
      }
      return res;
    };
  }
}

/**
 * The answer to a page load's first call of `urlPart` (e.g. '/api/txn/totals'), and the query it
 * was asked with: taken from the page's state when the server rendered the page (decision 050: the
 * browser then makes no such call), else from the browser's own request. `key` is the query's key
 * prefix in that state (e.g. ['txn', 'totals']).
 */
export async function firstAnswer<T>(page: Page, urlPart: string, key: string[], load: () => Promise<Response | null>): Promise<{ query: Record<string, string>; data: T }> {
  // code 0: with 5-second tokens the first answer may be 'expired', then the client refreshes and asks again.
  const asked = page.waitForResponse(async (r) => r.url().includes(urlPart) && (await r.json().catch(() => null))?.code === 0).catch(() => null);
  const doc = await load();
  const state = doc ? /<script type="application\/json" id="ssr-state">([\s\S]*?)<\/script>/.exec(await doc.text()) : null;
  if (state) {
    const queries = (JSON.parse(state[1]) as { queries: { queries: { queryKey: unknown[]; state: { data: T } }[] } }).queries.queries;
    const q = queries.find((x) => key.every((k, i) => x.queryKey[i] === k));
    if (q)
      return {
        query: Object.fromEntries(
          Object.entries(q.queryKey[key.length] as Record<string, unknown>)
            .filter(([, v]) => v !== undefined)
            .map(([k, v]) => [k, String(v)]),
        ),
        data: q.state.data,
      };
  }
  const res = await asked;
  if (!res) throw new Error(`no ${urlPart} call and no rendered answer`);
  return { query: Object.fromEntries(new URL(res.url()).searchParams), data: ((await res.json()) as { data: T }).data };
}

/**
 * A page the server rendered (decision 050) takes input once its screen has hydrated; until then its
 * root is inert. Clicks and typing wait by themselves (the root is aria-disabled too); a file input's
 * `setInputFiles`, which waits for nothing, must wait for this first.
 */
export async function takenOver(page: Page) {
  await expect(page.locator('#root')).not.toHaveAttribute('inert');
}
