import { expect, expectAccessible, test } from './fixtures.ts';

// The first journey: every route of docs/pages.md, the nav and footer links, the redirects, and an
// accessibility scan of every page.

const PAGES: { path: string; heading: RegExp }[] = [
  { path: '/', heading: /your design, printed/i },
  { path: '/about', heading: /about us/i },
  { path: '/contact', heading: /contact us/i },
  { path: '/faq', heading: /frequently asked questions/i },
  { path: '/login', heading: /log in/i },
  { path: '/register', heading: /create an account/i },
  { path: '/forgot-password', heading: /forgot your password/i },
  { path: '/reset-password', heading: /invalid link/i },
  { path: '/reset-password?token=abc', heading: /choose a new password/i },
  { path: '/payment-success', heading: /no completed payment/i },
  { path: '/payment-cancel', heading: /payment not completed/i },
  { path: '/admin/', heading: /admin panel/i },
];

for (const { path, heading } of PAGES) {
  test(`${path} shows its page and passes an accessibility scan`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
    await expect(page.getByRole('contentinfo')).toContainText('Wisconsin, United States');
    await expectAccessible(page);
  });
}

test('the home page shows the gallery of six images and the three steps', async ({ page }) => {
  await page.goto('/');
  const images = page.getByRole('list', { name: 'Prints from our shop' }).getByRole('img');
  await expect(images).toHaveCount(6);
  for (const img of await images.all()) {
    await expect
      .poll(() => img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0))
      .toBe(true);
  }
  await expect(page.locator('.steps > li')).toHaveCount(3);
});

test('the navigation bar and footer lead to their pages', async ({ page }) => {
  await page.goto('/');
  const nav = page.getByRole('navigation', { name: 'Main' });
  for (const [link, url, heading] of [
    ['About', '/about', /about us/i],
    ['Contact', '/contact', /contact us/i],
    ['FAQ', '/faq', /frequently asked/i],
    ['Login', '/login', /log in/i],
    ['Register', '/register', /create an account/i],
    ['Home', '/', /your design/i],
  ] as const) {
    const toggle = page.getByRole('button', { name: 'Menu' });
    if (await toggle.isVisible()) await toggle.click();
    await nav.getByRole('link', { name: link, exact: true }).click();
    await expect(page).toHaveURL(new RegExp(`${url}$`));
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading);
  }
  await expect(nav.getByRole('link', { name: 'My Orders' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);

  const footer = page.getByRole('contentinfo');
  for (const [link, url] of [
    ['About Us', '/about'],
    ['Contact', '/contact'],
    ['FAQ', '/faq'],
  ] as const) {
    await footer.getByRole('link', { name: link }).click();
    await expect(page).toHaveURL(new RegExp(`${url}$`));
  }
});

test('an unknown path redirects to the home page, which says the page was not found', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/your design/i);
  const notice = page.getByRole('status').filter({ hasText: "We couldn't find the page" });
  await expect(notice).toHaveText("We couldn't find the page /no-such-page. Here is the home page instead.");
  await expectAccessible(page);
  // The next navigation leaves it behind.
  await page.getByRole('contentinfo').getByRole('link', { name: 'FAQ' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/frequently asked/i);
  await expect(notice).toHaveCount(0);

  // Markup in a path is shown as text, a long path is cut short, and Dismiss hides the notice.
  await page.goto(`/<b>bold</b>/${'x'.repeat(200)}`);
  await expect(page).toHaveURL(/\/$/);
  await expect(notice).toContainText("We couldn't find the page /<b>bold</b>/xxx");
  await expect(notice).toContainText('…');
  await expect(notice.locator('b')).toHaveCount(0);
  await page.getByRole('button', { name: 'Dismiss this notice' }).click();
  await expect(notice).toHaveCount(0);
});

test('a nested unknown path redirects to the home page too', async ({ page }) => {
  await page.goto('/no/such/page');
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('status').filter({ hasText: "We couldn't find the page" })).toContainText(
    '/no/such/page',
  );
});

test('/orders sends a logged-out visitor to /login', async ({ page }) => {
  await page.goto('/orders');
  await expect(page).toHaveURL(/\/login$/);
});

test('the payment cancel page links to the cart', async ({ page }) => {
  await page.goto('/payment-cancel');
  await expect(page.getByRole('alert').or(page.getByRole('status'))).toHaveText(
    'Order Cancelled or Payment Failed. Your cart has not been changed. You can try checking out again.',
  );
  await expect(page.getByRole('link', { name: 'View Cart' })).toHaveAttribute('href', '/#cart-section');
});

test('the payment success page without a session id claims nothing and leaves the cart', async ({ page }) => {
  await page.goto('/');
  const cart = JSON.stringify([{ id: 'x', filePath: 'm', fileName: 'a.stl', quantity: 2 }]);
  await page.evaluate((c) => localStorage.setItem('printCart', c), cart);
  const before = await page.evaluate(() => localStorage.getItem('printCart'));
  await page.goto('/payment-success');
  await expect(page.getByText('We could not find a completed payment.')).toBeVisible();
  await expect(page.getByText('Payment Successful')).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'View My Orders' })).toHaveAttribute('href', '/orders');
  await expect(page).toHaveTitle('No completed payment · Badger Print Co.');
  expect(await page.evaluate(() => localStorage.getItem('printCart'))).toBe(before);
});

test('the phone layout opens the menu', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto('/');
  const toggle = page.getByRole('button', { name: 'Menu' });
  await expect(toggle).toBeVisible();
  await toggle.click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }),
  ).toBeVisible();
  await expectAccessible(page);
});
