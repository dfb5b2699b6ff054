import type { OutboxMail } from '../db/schema.ts';

// The shop's mails: plain text and HTML, the shop's name, absolute links built from PUBLIC_URL only (never
// from a request's Host), and every user-supplied value escaped in the HTML part.

export type MailBrand = { shopName: string; publicUrl: string };

export function escapeHtml(value: string): string {
  return value
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

export type Block = { text: string } | { action: { label: string; url: string } } | { quote: string };

/** A mail of plain blocks: each a paragraph, a button with its link, or a quoted text. */
export function renderMail(brand: MailBrand, to: string, subject: string, blocks: Block[]): OutboxMail {
  const text: string[] = [];
  const html: string[] = [];
  for (const b of blocks) {
    if ('text' in b) {
      text.push(b.text);
      html.push(`<p>${escapeHtml(b.text)}</p>`);
    } else if ('action' in b) {
      text.push(`${b.action.label}: ${b.action.url}`);
      html.push(
        `<p><a href="${escapeHtml(b.action.url)}" style="display:inline-block;padding:10px 18px;background:#007bff;color:#ffffff;border-radius:4px;text-decoration:none">${escapeHtml(b.action.label)}</a></p>`,
        `<p style="font-size:13px;color:#555">Or open this address: ${escapeHtml(b.action.url)}</p>`,
      );
    } else {
      text.push(b.quote);
      html.push(
        `<blockquote style="white-space:pre-wrap;border-left:3px solid #ccc;margin:0;padding-left:12px">${escapeHtml(b.quote)}</blockquote>`,
      );
    }
  }
  text.push(`${brand.shopName}\n${brand.publicUrl}`);
  html.push(
    `<p style="color:#555">${escapeHtml(brand.shopName)}<br><a href="${escapeHtml(brand.publicUrl)}">${escapeHtml(brand.publicUrl)}</a></p>`,
  );
  return {
    to,
    subject,
    text: `${text.join('\n\n')}\n`,
    html: `<!doctype html><html><body style="font-family:sans-serif;line-height:1.5;color:#222">${html.join('\n')}</body></html>`,
  };
}

export function verificationMail(
  brand: MailBrand,
  m: { to: string; username: string; link: string },
): OutboxMail {
  return renderMail(brand, m.to, 'Verify your email', [
    { text: `Hello ${m.username},` },
    {
      text: `thanks for creating an account at ${brand.shopName}. Please confirm your email address with the link below: it works once, for 24 hours.`,
    },
    { action: { label: 'Verify your email', url: m.link } },
    { text: 'If you did not create this account, ignore this mail: nothing more will happen.' },
  ]);
}

export function passwordResetMail(
  brand: MailBrand,
  m: { to: string; username: string; link: string },
): OutboxMail {
  return renderMail(brand, m.to, 'Reset your password', [
    { text: `Hello ${m.username},` },
    {
      text: `someone (hopefully you) asked to reset the password of your ${brand.shopName} account. The link below works once, for 1 hour.`,
    },
    { action: { label: 'Reset your password', url: m.link } },
    { text: 'If you did not ask for this, ignore this mail: your password stays as it is.' },
  ]);
}

export function passwordChangedMail(brand: MailBrand, m: { to: string; username: string }): OutboxMail {
  return renderMail(brand, m.to, 'Your password was changed', [
    { text: `Hello ${m.username},` },
    {
      text: `the password of your ${brand.shopName} account was just changed, and every device that was logged in has been logged out.`,
    },
    { text: 'If this was you, there is nothing more to do.' },
    {
      text: 'If it was not you, choose a new password right away with the link below, and reply to this mail so we can help.',
    },
    { action: { label: 'Reset your password', url: `${brand.publicUrl}/forgot-password` } },
  ]);
}

export function contactMessageMail(
  brand: MailBrand,
  m: { to: string; name: string; email: string; message: string; username?: string | undefined },
): OutboxMail {
  const mail = renderMail(brand, m.to, `Contact form: ${m.name}`, [
    { text: `A new message from the contact form of ${brand.shopName}.` },
    { text: `Name: ${m.name}\nEmail: ${m.email}${m.username ? `\nAccount: ${m.username}` : ''}` },
    { quote: m.message },
    { text: 'Reply to this mail to answer the sender.' },
  ]);
  return { ...mail, replyTo: m.email };
}

/**
 * The step-up's sign-in link (docs/security.md 6): the right password was typed in a browser without a
 * device cookie while strangers' failed logins had used up the account's allowance. Where the attempt came
 * from is only "a new browser": the address could be anybody's and is not worth mailing.
 */
export function signInLinkMail(
  brand: MailBrand,
  m: { to: string; username: string; link: string },
): OutboxMail {
  return renderMail(brand, m.to, 'Your sign-in link', [
    { text: `Hello ${m.username},` },
    {
      text: `someone (maybe you) just tried to log in to your ${brand.shopName} account from a new browser, with the right password. Because of many failed logins for your account from elsewhere, a login from a new browser needs this link too.`,
    },
    {
      text: 'If it was you, open the link below in that browser: it logs you in there. It works once, for 15 minutes.',
    },
    { action: { label: 'Log in on this browser', url: m.link } },
    {
      text: 'If it was not you, do not open the link: nobody was logged in. But whoever tried typed your password, so we recommend choosing a new one.',
    },
    { action: { label: 'Choose a new password', url: `${brand.publicUrl}/forgot-password` } },
  ]);
}
