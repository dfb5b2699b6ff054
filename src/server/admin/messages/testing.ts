import { asc } from 'drizzle-orm';
import type { Db } from '../../db/client.ts';
import { contactMessages } from '../../db/schema.ts';

// Helpers for the messages' tests: a message straight in the database, and every row to compare before
// and after a refused call.

let serial = 0;

export async function insertMessage(db: Db, fields: Partial<typeof contactMessages.$inferInsert> = {}) {
  serial++;
  const [row] = await db
    .insert(contactMessages)
    .values({
      name: `Sender ${serial}`,
      email: `sender${serial}@example.com`,
      message: `Message ${serial}`,
      ...fields,
    })
    .returning();
  if (!row) throw new Error('insertMessage: no row');
  return row;
}

export function allMessages(db: Db) {
  return db.select().from(contactMessages).orderBy(asc(contactMessages.id));
}
