import type { Page } from '@playwright/test';
import { mainNav, switchToAdmin } from './admin-helpers.ts';
import { expect, expectAccessible, test } from './fixtures.ts';
import { unique } from './helpers.ts';

// The back office's messages (issue 25, "Done when"): a visitor's message sent through the contact form
// reaches the panel unhandled, as text; the admin replies by mail and marks it handled, and the menu's
// count follows.

const adminNav = (page: Page) => page.getByRole('navigation', { name: 'Admin' });
const messagesLink = (page: Page) =>
  adminNav(page).getByRole('link', { name: /^Messages( \d+ unhandled)?$/ });

/** The unhandled count the menu shows (0 when it shows none). */
async function menuCount(page: Page): Promise<number> {
  const name = (await messagesLink(page).textContent()) ?? '';
  return Number(/(\d+)/.exec(name)?.[1] ?? 0);
}

test('an admin reads a contact message, replies by mail and marks it handled', async ({ page }) => {
  const tag = unique();
  const text = `Can you print <b>${tag}</b> in PETG?\n\nTwo copies, please.`;
  await page.goto('/contact');
  await page.getByLabel('Name').fill('Grace Hopper');
  await page.getByLabel('Email').fill(`${tag}@example.com`);
  await page.getByLabel('Message').fill(text);
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByText("Thank you for your message! We'll get back to you soon.")).toBeVisible();

  await switchToAdmin(page);
  await mainNav(page).getByRole('link', { name: 'Admin Panel' }).click();
  await expect(messagesLink(page)).toHaveAccessibleName(/^Messages \d+ unhandled$/);
  const before = await menuCount(page);
  expect(before).toBeGreaterThan(0);
  await messagesLink(page).click();
  await expect(page).toHaveURL(/\/admin\/messages$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Messages');

  // Unhandled first, newest first: the visitor's message leads, as the text they typed (never HTML).
  const card = page.locator('.message').first();
  await expect(card.getByRole('heading', { name: 'Grace Hopper' })).toBeVisible();
  await expect(card.locator('.message-text')).toHaveText(text, { useInnerText: true });
  await expect(card.locator('.message-text b')).toHaveCount(0);
  await expect(card.getByText('Unhandled', { exact: true })).toBeVisible();
  const reply = card.getByRole('link', { name: 'Reply to Grace Hopper' });
  const href = (await reply.getAttribute('href')) ?? '';
  expect(href.startsWith(`mailto:${tag}@example.com?subject=`)).toBe(true);
  expect(new URL(href).searchParams.get('subject')).toBe('Re: your message to Badger Print Co.');
  await expectAccessible(page);

  // Mark handled: who and when, and the menu's count goes down by one.
  await card.getByRole('button', { name: /^Mark handled/ }).click();
  await expect(card.getByText('Handled', { exact: true })).toBeVisible();
  await expect(card).toContainText('Handled by e2e-admin on');
  await expect.poll(() => menuCount(page)).toBe(before - 1);

  // The filters, kept in the URL through a reload.
  await page.getByRole('link', { name: 'Unhandled', exact: true }).click();
  await expect(page).toHaveURL(/\?show=unhandled$/);
  await expect(page.locator('.message-text', { hasText: tag })).toHaveCount(0);
  await page.getByRole('link', { name: 'Handled', exact: true }).click();
  await page.reload();
  await expect(page.getByRole('link', { name: 'Handled', exact: true })).toHaveAttribute(
    'aria-current',
    'page',
  );
  const handled = page.locator('.message', { hasText: tag });
  await expect(handled).toContainText('Handled by e2e-admin');

  // And back: unhandled again, counted again.
  await handled.getByRole('button', { name: /^Mark unhandled/ }).click();
  await expect(handled.getByText('Unhandled', { exact: true })).toBeVisible();
  await expect.poll(() => menuCount(page)).toBe(before);
});
