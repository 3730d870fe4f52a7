import { type BrowserContext, type Page } from '@playwright/test';
import { expect, expectAccessible, shot, signIn, test, tr, useLanguage } from './support';
import { freshToken } from './report-support';

/**
 * SCIM provisioning and the sign-in IP allow-list (issue 51), in Japanese: the administrator makes
 * a SCIM token in Team → Provisioning (shown once) and maps a directory group to a named role; the
 * test, as the identity provider would, provisions a user and its group membership with plain HTTP
 * requests; the user appears in the users list with the role; it is deactivated and shows so. Then
 * the sign-in IP allow-list: a list without the administrator's own address is refused (the
 * lock-out guard). Screens at 1440 and 390 px, axe on both panels.
 */
test.describe.configure({ mode: 'serial' });

const L = 'ja' as const;
const S = (key: string, vars: Record<string, string | number> = {}) => tr(L, 'scim', key, vars);
let ctx: BrowserContext;
let a: Page;
let secret = '';

test.beforeAll(async ({ browser }) => {
  ctx = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  a = await ctx.newPage();
});
test.afterAll(async () => ctx.close());

const scim = async (method: 'GET' | 'POST' | 'PATCH', url: string, data?: unknown) => {
  const r = await a.request.fetch(`/scim/v2${url}`, {
    method,
    headers: { authorization: `Bearer ${secret}`, 'content-type': 'application/scim+json' },
    ...(data ? { data: JSON.stringify(data) } : {}),
  });
  return { status: r.status(), body: await r.json() };
};

test('the administrator makes a SCIM token and maps a group to a role', async () => {
  await a.goto('/');
  await signIn(a, 'demo');
  await useLanguage(a, L);
  // A named role to map to (the roles screen has its own spec).
  const token = await freshToken(a);
  const role = await (await a.request.post('/api/role/save', { headers: { 'x-token': token }, form: { name: '経理（SCIM）', description: '', permissions: 'txn:list' } })).json();
  expect(role.code, role.msg).toBe(0);
  await a.goto('/merchant/user');
  await a.getByRole('tab', { name: S('tab.provisioning') }).click();
  await expect(a.getByTestId('scim-endpoint')).toContainText('/scim/v2');
  await a.getByLabel(S('tokens.name')).fill('Entra ID');
  await a.getByRole('button', { name: S('tokens.create') }).click();
  const shown = a.getByRole('dialog', { name: S('tokens.secretTitle') });
  await expect(shown.getByText(S('tokens.secretOnce'))).toBeVisible();
  secret = (await shown.getByTestId('scim-secret').innerText()).trim();
  expect(secret).toMatch(/^scim_[A-Za-z0-9]{12}_[A-Za-z0-9_-]{43}$/);
  await shown.getByRole('button', { name: S('tokens.secretDone') }).click();
  await expect(a.locator('.ant-table-row', { hasText: secret.slice(0, 17) })).toContainText(S('tokens.active'));

  await a.getByLabel(S('mappings.group')).fill('Portal Finance');
  await a.getByRole('combobox', { name: S('mappings.role') }).click();
  await a.locator('.ant-select-item-option', { hasText: '経理（SCIM）' }).click();
  await a.getByRole('button', { name: S('mappings.add') }).click();
  await expect(a.locator('.ant-table-row', { hasText: 'Portal Finance' })).toContainText('経理（SCIM）');
  await shot(a, 'scim-provisioning-ja-1440');
  await expectAccessible(a, 'Team → Provisioning');
  await a.setViewportSize({ width: 390, height: 844 });
  await shot(a, 'scim-provisioning-ja-390');
  await a.setViewportSize({ width: 1440, height: 900 });
});

test('the identity provider provisions a user into the mapped group: it is in the users list with the role; deactivated, it shows so', async () => {
  const user = await scim('POST', '/Users', {
    schemas: ['urn:ietf:params:scim:schemas:core:2.0:User'],
    userName: 'e2e.scim@contoso.example',
    name: { givenName: 'Hanako', familyName: 'Sato' },
    emails: [{ value: 'e2e.scim@contoso.example', primary: true }],
    active: true,
  });
  expect(user.status, JSON.stringify(user.body)).toBe(201);
  const group = await scim('POST', '/Groups', { schemas: ['urn:ietf:params:scim:schemas:core:2.0:Group'], displayName: 'Portal Finance', members: [{ value: user.body.id }] });
  expect(group.status).toBe(201);
  await a.getByRole('tab', { name: tr(L, 'roles', 'tab.users') }).click();
  await a.reload();
  const row = a.locator('.ant-table-row', { hasText: 'e2e.scim@contoso.example' });
  await expect(row).toContainText('経理（SCIM）');
  await expect(row).toContainText(tr(L, 'team', 'status.ACTIVE'));
  const off = await scim('PATCH', `/Users/${user.body.id}`, { schemas: ['urn:ietf:params:scim:api:messages:2.0:PatchOp'], Operations: [{ op: 'replace', value: { active: false } }] });
  expect(off.body.active).toBe(false);
  await a.reload();
  await expect(a.locator('.ant-table-row', { hasText: 'e2e.scim@contoso.example' })).toContainText(tr(L, 'team', 'status.DISABLED'));
});

test('the sign-in IP allow-list: a list without my own address is refused (lock-out guard)', async () => {
  await a.getByRole('tab', { name: S('tab.signinIp') }).click();
  await expect(a.getByTestId('your-ip')).toHaveText(/[.:]/);
  const mine = (await a.getByTestId('your-ip').innerText()).trim();
  await a.getByLabel(S('ip.ranges')).fill('198.51.100.0/24');
  await a.getByRole('button', { name: S('ip.save') }).click();
  await expect(a.getByTestId('ip-error')).toContainText(mine);
  await shot(a, 'scim-signin-ip-guard-ja-1440');
  await expectAccessible(a, 'Team → Sign-in IP');
  await a.setViewportSize({ width: 390, height: 844 });
  await shot(a, 'scim-signin-ip-guard-ja-390');
  await a.setViewportSize({ width: 1440, height: 900 });
  // With my address added: saved.
  await a.getByRole('button', { name: S('ip.addMine') }).click();
  await a.getByRole('button', { name: S('ip.save') }).click();
  await expect(a.getByText(S('ip.saved'))).toBeVisible();
  // Emptied again, so the other specs sign in from anywhere.
  await a.getByLabel(S('ip.ranges')).fill('');
  await a.getByRole('button', { name: S('ip.save') }).click();
  await expect(a.getByText(S('ip.saved')).first()).toBeVisible();
});
