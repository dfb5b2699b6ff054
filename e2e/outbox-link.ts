import path from 'node:path';
import { readOutboxDir } from '../src/server/mail/testing.ts';

/**
 * For the screenshot scripts (no test runner, so no expect.poll): waits up to 20 s for a mail to `email` in
 * DATA_DIR/outbox holding a link with `part`, and returns the link.
 */
export async function outboxLink(
  dataDir: string,
  email: string,
  part = '/api/verify-email?token=',
): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const mail = readOutboxDir(path.join(dataDir, 'outbox')).find((m) =>
      (m.headers.to ?? '').includes(email),
    );
    const link = mail?.text.split(/\s+/).find((w) => w.includes(part));
    if (link) return link;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`no mail to ${email} with ${part}`);
}
