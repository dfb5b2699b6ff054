import { expect, test } from './fixtures.ts';
import { newCustomer } from './helpers.ts';

// Forms say everything at once: every field's error together, next to its field, announced; and a
// logged-in customer's contact form knows who they are.

for (const size of [
  { width: 1366, height: 900 },
  { width: 390, height: 844 },
]) {
  test(`register shows every field's error at once (${size.width} px)`, async ({ page }) => {
    await page.setViewportSize(size);
    await page.goto('/register');
    await page.getByLabel('Username').fill('ab');
    await page.getByLabel('Email').fill('not-an-email');
    await page.getByLabel('Password').fill('123');
    await page.getByRole('button', { name: 'Register' }).click();
    const expected = {
      Username:
        'Username must be 3-32 characters long and use only letters, digits, dots, dashes or underscores.',
      Email: 'Please enter a valid email address.',
      Password: 'Password must be at least 6 characters long.',
    };
    await expect(page.getByRole('alert')).toHaveCount(3);
    for (const [label, message] of Object.entries(expected)) {
      const input = page.getByLabel(label, { exact: true });
      await expect(input).toHaveAttribute('aria-invalid', 'true');
      await expect(input).toHaveAccessibleDescription(
        new RegExp(`^${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
      );
    }
    // Fixing one field leaves the others' errors until the next try, then only what is still wrong.
    await page.getByLabel('Password').fill('long enough');
    await page.getByRole('button', { name: 'Register' }).click();
    await expect(page.getByRole('alert')).toHaveCount(2);
  });
}

test("a logged-in customer's contact form is filled in with their name and email", async ({
  page,
  shop,
  request,
}) => {
  const customer = await newCustomer(page, shop, request);
  await page.goto('/contact');
  await expect(page.getByLabel('Email')).toHaveValue(customer.email);
  await expect(page.getByLabel('Name')).toHaveValue(customer.username);
});
