import { z } from 'zod';
import { emailField } from './account.ts';

// The contact form's fields and texts, one source for the server's route and the client's form.

export const CONTACT_MSG = {
  required: 'Name, email and message are required.',
  singleLine: 'Name and email must each be a single line.',
  nameTooLong: 'Name must be at most 100 characters long.',
  messageTooLong: 'Message must be at most 5000 characters long.',
  thanks: "Thank you for your message! We'll get back to you soon.",
  tooMany: 'Too many requests. Please wait before submitting again.',
} as const;

/** A line break in a value that ends up in a mail header is a header injection attempt (docs/security.md 19). */
const singleLine = (s: string) => !/[\r\n]/.test(s);

export const contactRequest = z.object({
  name: z
    .string()
    .refine(singleLine, CONTACT_MSG.singleLine)
    .transform((s) => s.trim())
    .pipe(z.string().max(100, CONTACT_MSG.nameTooLong)),
  email: z.string().refine(singleLine, CONTACT_MSG.singleLine).pipe(emailField),
  message: z
    .string()
    .transform((s) => s.trim())
    .pipe(z.string().max(5000, CONTACT_MSG.messageTooLong)),
});
