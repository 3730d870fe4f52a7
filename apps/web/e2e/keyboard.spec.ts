import { type Locator, type Page } from '@playwright/test';
import { EMAIL, PASSWORD, codeFromMailbox, expect as expectBase, test, tr } from './support';

/** This machine is shared and slow at times: generous waits (a real defect still fails, only later). */
const expect = expectBase.configure({ timeout: 45_000 });
test.describe.configure({ timeout: 300000 });

/**
 * Issue 13, accessibility: sign in → find a transaction → refund it → export the list with the
 * keyboard alone (no click, no mouse), and at every Tab stop the focused control shows a visible
 * focus indicator (an outline or a focus ring drawn as a box shadow, on it or its field frame).
 */
const T = (k: string, v?: Record<string, string | number>) => tr('en', 'txn', k, v);
const L = (k: string) => tr('en', 'login', k);

/** Describes how the focused element shows its focus; '' when it shows none. */
async function focusIndicator(page: Page): Promise<string> {
  return page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return '';
    const frames = [el, el.closest('.ant-input-affix-wrapper, .ant-input-number, .ant-select, .ant-picker, .ant-input-password, .light-input')].filter(Boolean) as HTMLElement[];
    for (const f of frames) {
      const s = getComputedStyle(f);
      if (s.outlineStyle !== 'none' && parseFloat(s.outlineWidth) > 0) return `outline ${s.outlineWidth} ${s.outlineStyle} ${s.outlineColor} on ${f.tagName}.${f.className}`;
      if (s.boxShadow && s.boxShadow !== 'none') return `box-shadow ${s.boxShadow} on ${f.tagName}.${f.className}`;
    }
    return '';
  });
}

/** Presses Tab (Shift+Tab with `back`) until `target` has the focus, checking the focus is visible at each stop. */
async function tabTo(page: Page, target: Locator, { back = false, max = 80 } = {}) {
  for (let i = 0; i < max; i++) {
    if (await target.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false)) {
      expect(await focusIndicator(page), 'the focus is visible on the target').not.toBe('');
      return;
    }
    await page.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const where = await page.evaluate(() => {
      const el = document.activeElement as HTMLElement | null;
      return el ? `${el.tagName} ${el.getAttribute('aria-label') ?? el.textContent?.trim().slice(0, 40) ?? ''}` : 'none';
    });
    if (where !== 'BODY ' && !where.startsWith('BODY')) expect(await focusIndicator(page), `focus visible on ${where}`).not.toBe('');
  }
  throw new Error(`${max} Tab presses did not reach the target`);
}

/** Presses ArrowDown inside the menu until `item` has the focus; on failure says where the focus is and what the menu holds. */
async function arrowTo(page: Page, menu: Locator, item: Locator, max = 40) {
  const focused = () => item.evaluate((el) => el === document.activeElement || el.contains(document.activeElement)).catch(() => false);
  for (let i = 0; i < max && !(await focused()); i++) {
    await page.keyboard.press('ArrowDown');
    // antd's menu moves the focus in the next animation frame and cancels a pending move on the next
    // key: a person never presses within one frame, but a busy machine can make every press do so
    // (the focus then stays put while the menu's active item moves on). Let the frame pass.
    await page.evaluate(
      () =>
        new Promise<void>((r) => {
          requestAnimationFrame(() => requestAnimationFrame(() => r()));
          setTimeout(r, 100);
        }),
    );
  }
  if (await focused()) return;
  const where = await page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    return el ? `${el.tagName}.${el.className} "${el.textContent?.trim().slice(0, 40) ?? ''}"` : 'none';
  });
  throw new Error(`${max} ArrowDown presses did not reach the menu item; the focus is on ${where}; url ${page.url()}\n${await menu.ariaSnapshot().catch(() => '')}`);
}

test('keyboard only: sign in → find a transaction → refund → export, the focus always visible', async ({ page }) => {
  // A mouse click anywhere would be a defect of this test: fail on it.
  await page.addInitScript(() => {
    window.addEventListener(
      'mousedown',
      (e) => {
        if (e.isTrusted) console.error('mouse used in the keyboard-only spec');
      },
      true,
    );
  });
  await page.goto('/login');
  await expect(page.getByRole('heading', { name: L('title') })).toBeVisible();
  await tabTo(page, page.getByLabel(L('username')));
  await page.keyboard.type('other-main');
  await page.keyboard.press('Tab');
  await expect(page.getByLabel(L('password'), { exact: true })).toBeFocused();
  await page.keyboard.type(PASSWORD);
  const sendCode = page.getByTestId('send-code');
  await tabTo(page, sendCode);
  for (let attempt = 0; ; attempt++) {
    const since = Date.now();
    const answer = page.waitForResponse((r) => r.url().includes('/api/user/getEmailCode'));
    await page.keyboard.press('Enter');
    const body = (await (await answer).json()) as { code: number; data: { wait?: number } | null };
    if (body.code === 0) {
      const code = await codeFromMailbox(page.request, EMAIL['other-main'], since);
      await tabTo(page, page.getByLabel(L('verifyCode')), { back: true });
      await page.keyboard.type(code);
      break;
    }
    expect(attempt, 'resend wait').toBeLessThan(3);
    await expect(sendCode).toBeEnabled({ timeout: ((body.data?.wait ?? 60) + 5) * 1000 });
    await expect(sendCode).toBeFocused();
  }
  await page.keyboard.press('Enter'); // submits the form from the code field
  await expect(page.getByTestId('user-menu')).toContainText('other-main');
  // As a person would: wait for the landing page to finish loading before moving through it.
  await expect(page).toHaveURL(/\/dashboard/);
  await page.waitForLoadState('networkidle');

  // The side menu: Transactions → Transaction list, by keyboard (antd's menu: one Tab stop, arrows inside).
  const menu = page.getByRole('navigation', { name: tr('en', 'layout', 'mainMenu') });
  // The landing page's heading has the focus (issue 29 §6): the menu is behind it, Shift+Tab away.
  await expect(page.getByRole('heading', { level: 1 })).toBeFocused();
  await tabTo(page, menu.getByRole('menu').first(), { back: true }); // the menu is one Tab stop; arrows move inside
  const txnGroup = menu.getByRole('menuitem', { name: tr('en', 'menu', 'txn'), exact: true });
  await arrowTo(page, menu, txnGroup);
  // Enter opens a closed group (a group already open for the current page stays open).
  if ((await txnGroup.getAttribute('aria-expanded')) !== 'true') await page.keyboard.press('Enter');
  await expect(txnGroup).toHaveAttribute('aria-expanded', 'true');
  const listItem = menu.getByRole('menuitem', { name: tr('en', 'menu', 'txnList'), exact: true });
  await expect(listItem).toBeVisible();
  await arrowTo(page, menu, listItem);
  expect(await focusIndicator(page), 'menu item focus visible').not.toBe('');
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/txn\/list/);

  // Find: successful purchases by the result filter, then Search.
  await tabTo(page, page.getByLabel(T('filter.type'), { exact: true }));
  await page.keyboard.type('PURC');
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByLabel(T('filter.result'), { exact: true }));
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await tabTo(page, page.getByRole('button', { name: T('action.search'), exact: true }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/gwTranType=PURC/);

  // Open transactions until one can be refunded.
  const links = page.locator('.txn-order-link');
  await expect(links.first()).toBeVisible();
  let refundable = false;
  for (let i = 0; i < 8 && !refundable; i++) {
    await tabTo(page, links.nth(i));
    await page.keyboard.press('Enter');
    await expect(page.getByText(T('detail.main'))).toBeVisible();
    await expect(page.locator('.ant-spin-spinning, .full-page-spin, .ant-skeleton-active')).toHaveCount(0);
    refundable = await page.getByRole('button', { name: T('action.refund') }).isVisible();
    if (!refundable) {
      await page.goBack();
      await expect(links.first()).toBeVisible();
    }
  }
  expect(refundable, 'a refundable purchase among the first rows').toBe(true);

  // Refund 1: amount (autofocused), Next, password (autofocused), Enter.
  await tabTo(page, page.getByRole('button', { name: T('action.refund') }));
  await page.keyboard.press('Enter');
  const amount = page.getByRole('dialog', { name: T('refund.amountTitle') });
  await expect(amount.getByRole('spinbutton')).toBeFocused();
  await page.keyboard.type('1');
  await tabTo(page, amount.getByRole('button', { name: T('refund.next') }));
  await page.keyboard.press('Enter');
  const pw = page.getByRole('dialog', { name: T('refund.passwordTitle') });
  await expect(pw.getByRole('textbox', { name: T('refund.password') })).toBeFocused();
  expect(await focusIndicator(page)).not.toBe('');
  await page.keyboard.type(PASSWORD);
  await page.keyboard.press('Enter');
  await expect(page.getByText(T('refund.success')).or(page.getByText('Refund successful'))).toBeVisible();
  await expect(page).toHaveURL(/\/txn\/list$/);

  // Export the list.
  await tabTo(page, page.getByRole('button', { name: T('action.export') }));
  await page.keyboard.press('Enter');
  const confirm = page.getByRole('dialog');
  await expect(confirm).toContainText(T('export.operationTips'));
  await tabTo(page, confirm.getByRole('button', { name: T('export.ok') }));
  await page.keyboard.press('Enter');
  await expect(page).toHaveURL(/\/report\/file$/);
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toContainText(/Transactions_\d{8}_\d{6}\.xlsx/);
});
