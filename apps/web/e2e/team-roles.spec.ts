import { type Page } from '@playwright/test';
import { EMAIL, expect, expectAccessible, shot, test, tr, useLanguage } from './support';
import { freshToken, signInQuick } from './report-support';

/**
 * Named roles (issue 28), in Chinese: the main user defines a role (permissions picked by menu
 * area), gives it to a new user from the add-user dialog, then narrows the role — the change
 * reaches its holder at once (the API side, every process: roles.test.ts, team.two-process.test.ts).
 */
test.describe.configure({ mode: 'serial' });

const L = 'zh' as const;
const ROLE = '对账专员';
const USER = 'role-e2e';
EMAIL[USER] = 'role-e2e@demo-group.example';

let a: Page;
test.beforeAll(async ({ browser, baseURL }) => {
  a = await (await browser.newContext({ viewport: { width: 1440, height: 900 } })).newPage();
  await a.goto('/login');
  await useLanguage(a, L);
  await signInQuick(a, 'demo', baseURL!);
});
test.afterAll(async () => a.context().close());

const rolesTab = () => a.getByRole('tab', { name: tr(L, 'roles', 'tab.roles') });

test('define a role by menu area and give it to a new user', async () => {
  await a.goto('/merchant/user');
  await rolesTab().click();
  // The empty state shows while the merchant has no named role; another spec on the same server
  // (scim-provisioning maps a directory group to one) may have made one already.
  const token = await freshToken(a);
  const existing = (await (await a.request.get('/api/role/list', { headers: { 'x-token': token } })).json()).data as unknown[];
  if (existing.length === 0) await expect(a.getByText(tr(L, 'roles', 'empty'))).toBeVisible();
  else await expect(a.getByText(tr(L, 'roles', 'empty'))).toHaveCount(0);
  await a.getByRole('button', { name: tr(L, 'roles', 'newRole') }).click();
  const dialog = a.getByRole('dialog', { name: tr(L, 'roles', 'newRole') });
  await dialog.getByLabel(tr(L, 'roles', 'form.name')).fill(ROLE);
  await dialog.getByLabel(tr(L, 'roles', 'form.description')).fill('查看交易与结算');
  for (const p of ['perm.txn_list', 'perm.txn_detail', 'perm.txn_settle_detail']) await dialog.getByRole('checkbox', { name: tr(L, 'team', p) }).check();
  // a refund cap of the role (enforcement: roles.caps.test.ts)
  await dialog.getByRole('button', { name: tr(L, 'roles', 'caps.add') }).click();
  await dialog.getByRole('textbox', { name: tr(L, 'roles', 'caps.perDay') }).fill('5000');
  await shot(a, 'team-role-dialog-zh');
  await expectAccessible(a, 'role dialog (zh)', '.ant-modal');
  await dialog.getByRole('button', { name: tr(L, 'team', 'form.save') }).click();
  await expect(a.getByText(tr(L, 'roles', 'added', { name: ROLE }))).toBeVisible();
  const row = a.getByRole('row', { name: new RegExp(ROLE) });
  await expect(row).toContainText(tr(L, 'roles', 'caps.line', { currency: 'CNY', perRefund: tr(L, 'roles', 'caps.none'), perDay: '5,000.00' }));
  await expect(row).toContainText(`${tr(L, 'menu', 'txn')}${tr(L, 'roles', 'areaSeparator')}${tr(L, 'team', 'perm.txn_list')}`);

  await a.getByRole('tab', { name: tr(L, 'roles', 'tab.users'), exact: true }).click();
  await a.getByRole('button', { name: tr(L, 'team', 'addUser') }).click();
  const add = a.getByRole('dialog', { name: tr(L, 'team', 'addUser') });
  await add.getByLabel(tr(L, 'team', 'form.userName')).fill(USER);
  await add.getByLabel(tr(L, 'team', 'form.email')).fill(EMAIL[USER]);
  await add.getByRole('radio', { name: new RegExp(`^${ROLE}`) }).check();
  await add.getByRole('button', { name: tr(L, 'team', 'form.submit') }).click();
  await expect(a.getByText(tr(L, 'team', 'added', { name: USER, email: EMAIL[USER] }))).toBeVisible();
  await expect(a.locator('.ant-table').getByRole('row', { name: new RegExp(USER) })).toContainText(ROLE);
});

test('narrowing the role changes its holder at once; screens at 1440 and 390 px', async () => {
  await rolesTab().click();
  const row = a.getByRole('row', { name: new RegExp(ROLE) });
  await expect(row.getByRole('cell').nth(3)).toHaveText('1');
  await row.getByRole('button', { name: `${tr(L, 'team', 'action.edit')} ${ROLE}` }).click();
  const dialog = a.getByRole('dialog', { name: tr(L, 'roles', 'editRole', { name: ROLE }) });
  await expect(dialog.getByText(tr(L, 'roles', 'form.appliesToAll', { count: 1 }))).toBeVisible();
  await dialog.getByRole('checkbox', { name: tr(L, 'team', 'perm.txn_settle_detail') }).uncheck();
  await dialog.getByRole('button', { name: tr(L, 'team', 'form.save') }).click();
  await expect(a.getByText(tr(L, 'roles', 'saved', { name: ROLE, count: 1 }))).toBeVisible();
  await expect(row).not.toContainText(tr(L, 'team', 'perm.txn_settle_detail'));
  // the holder's grants as the server now has them
  // (The e2e server's access tokens last seconds: an expired one answers no data, and a reload lets
  // the app refresh it before asking again.)
  const grants = () =>
    a.evaluate(async (user) => {
      const token = document.cookie.match(/mp_token=([^;]+)/)?.[1] ?? '';
      return (await (await fetch(`/api/user/list?text=${user}`, { headers: { 'x-token': token } })).json()) as { data: { content: { permissions: string[] }[] } | null };
    }, USER);
  await expect
    .poll(
      async () => {
        const list = await grants();
        if (list.data) return list.data.content[0].permissions;
        await a.reload();
        await rolesTab().click();
        return null;
      },
      { timeout: 30_000 },
    )
    .toEqual(['txn:list', 'txn:detail']);
  await shot(a, 'team-roles-zh');
  await expectAccessible(a, 'roles tab (zh)');
  await a.setViewportSize({ width: 390, height: 844 });
  await expect(row).toBeVisible();
  await shot(a, 'team-roles-zh-390');
});
