import fs from 'node:fs';
import type { Page } from '@playwright/test';
import { formatCents } from '../src/shared/format.ts';
import { logOut, mainNav, paidOrder, switchToAdmin } from './admin-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { newCustomer, writeModels } from './helpers.ts';

// The back office's dashboard (issue 25, "Done when"): an order paid through the simulator shows in this
// week's revenue and orders, and every chart's numbers can be read as a table.

let dir: string;
test.beforeAll(() => {
  dir = writeModels();
});
test.afterAll(() => {
  fs.rmSync(dir, { recursive: true, force: true });
});

const figure = (page: Page, id: string) => page.getByTestId(`figure-${id}`).locator('.dash-figure-value');

async function openDashboard(page: Page) {
  await mainNav(page).getByRole('link', { name: 'Admin Panel' }).click();
  await page.getByRole('navigation', { name: 'Admin' }).getByRole('link', { name: 'Dashboard' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Dashboard');
  await expect(figure(page, 'orders')).toBeVisible();
}

const centsOf = (text: string | null) => Math.round(Number((text ?? '').replace(/[$,]/g, '')) * 100);

test('an admin opens the dashboard and sees a paid order counted', async ({ page, shop, request }) => {
  test.setTimeout(120_000);
  // This week's figures before the order.
  await switchToAdmin(page);
  await openDashboard(page);
  const ordersBefore = Number(await figure(page, 'orders').textContent());
  const revenueBefore = centsOf(await figure(page, 'revenue').textContent());

  await logOut(page);
  await newCustomer(page, shop, request);
  const orderId = await paidOrder(page, dir, { color: 'Red', quantity: '2' });

  await switchToAdmin(page);
  const order = await (await page.request.get(`/api/admin/orders/${orderId}`)).json();
  await openDashboard(page);
  await expect(figure(page, 'orders')).toHaveText(String(ordersBefore + 1));
  await expect(figure(page, 'revenue')).toHaveText(formatCents(revenueBefore + order.totalCents));
  // The journeys pay through the simulator only: the shop's test orders are all it has, and count.
  await expect(page.getByText(/The shop has no real paid order yet, so its .*counted/)).toBeVisible();

  // Five charts, each with its numbers as a table.
  const charts = page.locator('.dash-chart');
  await expect(charts).toHaveCount(5);
  await expect(charts.first().locator('svg').first()).toBeVisible();
  const ordersPanel = page.getByRole('region', { name: 'Orders per week' });
  await ordersPanel.getByText('Show the numbers').click();
  const lastWeek = ordersPanel.getByRole('table').getByRole('row').last();
  await expect(lastWeek.getByRole('cell')).toHaveText(String(ordersBefore + 1));
  const colors = page.getByRole('region', { name: 'Top colors' });
  await colors.getByText('Show the numbers').click();
  await expect(colors.getByRole('rowheader', { name: 'Red' })).toBeVisible();
  await expectAccessible(page);

  // The period is kept in the URL.
  await page.getByLabel('Period').selectOption('4');
  await expect(page).toHaveURL(/\/admin\/dashboard\?weeks=4$/);
  await expect(page.getByRole('region', { name: 'Orders per week' }).locator('tbody tr')).toHaveCount(4);
});
