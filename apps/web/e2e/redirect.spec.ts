import { expect, test, recordNetwork, signIn, tr } from './support';

test('sign-in errors: the server says what went wrong, in the chosen language', async ({ page, context, baseURL }) => {
  await page.goto('/login');
  const fill = async (username: string, password: string) => {
    await page.locator('#username').fill(username);
    await page.locator('#password').fill(password);
    await page.locator('#verifyCode').fill('000000');
    await page.locator('button[type=submit]').click();
  };
  await fill('nobody-here', 'whatever1');
  await expect(page.getByText(/Wrong user name or password, \d chances? remaining/)).toBeVisible();
  // Japanese: the language cookie, as the switcher leaves it.
  await context.addCookies([{ name: 'mp_lang', value: 'ja', url: baseURL! }]);
  await page.reload();
  await expect(page.getByRole('heading', { name: tr('ja', 'login', 'title') })).toBeVisible();
  await fill('other-main', 'not-the-password');
  await expect(page.getByText(/ユーザー名またはパスワードが違います。残り \d 回/)).toBeVisible();
  await expect(page.locator('#verifyCode')).toHaveValue('');
  await context.clearCookies();
});

test('a signed-out visit goes to sign-in and comes back to the page after sign-in', async ({ page }) => {
  recordNetwork(page, 'redirect');
  await page.goto('/notice/list?page=1&size=5');
  await expect(page).toHaveURL(/\/login\?redirect=%2Fnotice%2Flist%3Fpage%3D1%26size%3D5$/);
  await signIn(page, 'other-main');
  await expect(page).toHaveURL(/\/notice\/list\?page=1&size=5$/);
  await expect(page.getByRole('heading', { name: tr('en', 'menu', 'notice'), exact: true })).toBeVisible();
  await expect(page.locator('.ant-table-tbody tr.ant-table-row').first()).toBeVisible();
  // With a token, /login goes home (spec §4).
  await page.goto('/login');
  await expect(page).toHaveURL(/\/dashboard$/);
});

test('public screens open without a token', async ({ page }) => {
  // An activation link without a (valid) token says it has expired.
  await page.goto('/user/active');
  await expect(page.getByText(tr('en', 'account', 'active.expired'))).toBeVisible();
  // The password page for an expired password, reached from the sign-in page with the user name.
  await page.goto('/user/password?username=demo');
  await expect(page.getByRole('heading', { name: tr('en', 'account', 'password.title') })).toBeVisible();
  await expect(page.getByText(tr('en', 'account', 'password.expiredFor', { username: 'demo' }))).toBeVisible();
  await page.getByRole('button', { name: tr('en', 'account', 'backToLogin') }).click();
  await expect(page).toHaveURL(/\/login$/);
});
