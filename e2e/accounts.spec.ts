import { expect, test } from './fixtures.ts';
import { E2E_ADMIN } from './global-setup.ts';
import { mailedLink, unique } from './helpers.ts';

// Accounts as a customer meets them: register, verify by mail, log in and out, reset a forgotten password,
// and write to the shop.

test('register, verify by mail, log in, see My Orders, log out', async ({ page, shop }) => {
  const username = unique();
  const email = `${username}@example.com`;
  const password = 'first-secret-1';

  await page.goto('/register');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText('Password must be at least 6 characters long.');

  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(
    page.getByText('Registration successful! Please check your email for a verification link.'),
  ).toBeVisible();
  await expect(page.locator('form')).toHaveCount(0);

  // The same name again is refused without saying which field is taken.
  await page.goto('/register');
  await page.getByLabel('Username').fill(username.toUpperCase());
  await page.getByLabel('Email').fill(`other-${email}`);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Register' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Registration failed. Username or email might already be taken.',
  );

  // Not verified yet: login refused, with the resend action.
  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toContainText('Account not verified');
  await page.getByRole('button', { name: '(Resend Email)' }).click();
  await expect(
    page.getByText('Verification email resent successfully (if account exists and is unverified).'),
  ).toBeVisible();

  const verifyLink = await mailedLink(shop, email, `${shop.baseURL}/api/verify-email?token=`);
  await page.goto(verifyLink);
  await expect(page).toHaveURL(/\/login\?verified=1$/);
  await expect(page.getByText('Your email is verified. You can log in now.')).toBeVisible();

  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/$/);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'My Orders' })).toBeVisible();
  await expect(nav.getByRole('button', { name: 'Logout' })).toBeVisible();
  await expect(nav.getByTestId('cart-count')).toHaveText('0');
  await expect(nav.getByRole('link', { name: 'Login' })).toHaveCount(0);
  await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);

  // Logged in, /login and /register go home.
  await page.goto('/login');
  await expect(page).toHaveURL(/\/$/);
  await page.goto('/register');
  await expect(page).toHaveURL(/\/$/);

  await nav.getByRole('link', { name: 'My Orders' }).click();
  await expect(page.getByText("You haven't placed any orders yet.")).toBeVisible();

  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(nav.getByRole('link', { name: 'Login' })).toBeVisible();
  await expect(nav.getByRole('link', { name: 'My Orders' })).toHaveCount(0);

  // /orders remembers where the visitor was going.
  await page.goto('/orders');
  await expect(page).toHaveURL(/\/login$/);
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page).toHaveURL(/\/orders$/);
  await expect(page.getByText("You haven't placed any orders yet.")).toBeVisible();
});

test('forgot password: mailed link, reset, log in with the new password', async ({ page, shop, request }) => {
  const username = unique();
  const email = `${username}@example.com`;
  const register = await request.post('/api/register.php', {
    data: { username, email, password: 'old-secret-1' },
    headers: { origin: shop.baseURL },
  });
  expect(register.status()).toBe(201);
  await page.goto(await mailedLink(shop, email, `${shop.baseURL}/api/verify-email?token=`));

  const before = shop.mails().length;
  await page.goto('/forgot-password');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send reset link' }).click();
  await expect(page.getByText('Password reset instructions sent (if account exists).')).toBeVisible();

  const resetLink = await mailedLink(shop, email, `${shop.baseURL}/reset-password?token=`, before);
  await page.goto(resetLink);
  await page.getByLabel('New password', { exact: true }).fill('new-secret-2');
  await page.getByLabel('Confirm new password').fill('new-secret-3');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText('Passwords do not match.');
  await page.getByLabel('Confirm new password').fill('new-secret-2');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByText('Password reset successfully! Redirecting to login...')).toBeVisible();
  await expect(page).toHaveURL(/\/login$/, { timeout: 10_000 });

  // The link is single use.
  await page.goto(resetLink);
  await page.getByLabel('New password', { exact: true }).fill('third-secret-4');
  await page.getByLabel('Confirm new password').fill('third-secret-4');
  await page.getByRole('button', { name: 'Reset password' }).click();
  await expect(page.getByRole('alert')).toHaveText(
    'Failed to reset password. The token might be invalid or expired.',
  );

  await page.goto('/login');
  await page.getByLabel('Username').fill(username);
  await page.getByLabel('Password').fill('old-secret-1');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(page.getByRole('alert')).toBeVisible();
  await page.getByLabel('Password').fill('new-secret-2');
  await page.getByRole('button', { name: 'Log in' }).click();
  await expect(
    page.getByRole('navigation', { name: 'Main' }).getByRole('button', { name: 'Logout' }),
  ).toBeVisible();
});

test('the contact form sends its message to the shop', async ({ page, shop }) => {
  const before = shop.mails().length;
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Ada Lovelace');
  await page.getByLabel('Email').fill('ada@example.com');
  await page.getByLabel('Message').fill('Can you print in PETG?');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText("Thank you for your message! We'll get back to you soon.")).toBeVisible();
  await expect
    .poll(
      () =>
        shop
          .mails()
          .slice(before)
          .some((m) => m.text.includes('Can you print in PETG?')),
      { timeout: 15_000 },
    )
    .toBe(true);
});

test('the reset page without a token shows Invalid Link', async ({ page }) => {
  await page.goto('/reset-password');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Invalid Link');
  await expect(page.getByRole('alert')).toHaveText('Invalid or missing password reset token in URL.');
});

test('an admin made with the CLI sees the Admin Panel link; a customer does not', async ({ page }) => {
  await page.goto('/login');
  await page.getByLabel('Username').fill(E2E_ADMIN.username);
  await page.getByLabel('Password').fill(E2E_ADMIN.password);
  await page.getByRole('button', { name: 'Log in' }).click();
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveAttribute('href', '/admin/');
  await nav.getByRole('link', { name: 'Admin Panel' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Admin Panel');
  await nav.getByRole('button', { name: 'Logout' }).click();
  await expect(nav.getByRole('link', { name: 'Admin Panel' })).toHaveCount(0);
});
