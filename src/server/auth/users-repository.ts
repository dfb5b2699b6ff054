import { eq, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type User, users } from '../db/schema.ts';

// Users: names and emails are unique case-insensitively (lower() unique indexes); stored as given.

const lowerUsername = sql`lower(${users.username})`;
const lowerEmail = sql`lower(${users.email})`;

/** By username or email (a username cannot contain '@', so the two never collide). */
export async function findUserByLogin(db: Db, login: string): Promise<User | undefined> {
  const key = login.trim().toLowerCase();
  const [user] = await db
    .select()
    .from(users)
    .where(or(eq(lowerUsername, key), eq(lowerEmail, key)))
    .limit(1);
  return user;
}

export async function findUserByUsername(db: Db, username: string): Promise<User | undefined> {
  const [user] = await db
    .select()
    .from(users)
    .where(eq(lowerUsername, username.trim().toLowerCase()))
    .limit(1);
  return user;
}

export async function findUserByEmail(db: Db, email: string): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(lowerEmail, email.trim().toLowerCase())).limit(1);
  return user;
}

export async function findUserById(db: Db, id: number): Promise<User | undefined> {
  const [user] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return user;
}

/**
 * Runs `work` in a transaction that first locks the user's row and re-reads it (undefined when the user is
 * gone). For per-account check-then-act steps, such as counting recent mails and then queueing one:
 * without it, simultaneous requests for one account on PostgreSQL all count before any inserts and all
 * pass the cap. With it they take turns, and READ COMMITTED (set here, whatever the server default) gives
 * each turn's count a snapshot taken after the previous turn committed. `NO KEY UPDATE`, not `UPDATE`:
 * rows that merely reference the user (sessions, orders) can still be inserted meanwhile. PGlite already
 * runs one transaction at a time, and other queries wait for the transaction, never the reverse, so the
 * lock is never contended there and cannot deadlock with the app's own single connection.
 */
export async function withLockedUser<T>(
  db: Db,
  id: number,
  work: (tx: Db, user: User) => Promise<T>,
): Promise<T | undefined> {
  return db.transaction(
    async (tx) => {
      const [user] = await tx.select().from(users).where(eq(users.id, id)).for('no key update');
      return user ? work(tx, user) : undefined;
    },
    { isolationLevel: 'read committed' },
  );
}

export type NewUser = {
  username: string;
  email: string;
  passwordHash: string;
  isAdmin?: boolean;
  emailVerifiedAt?: Date | null;
  now: Date;
};

/** Inserts a user, or returns undefined when the username or email is taken (race-safe: the unique indexes decide). */
export async function insertUser(db: Db, u: NewUser): Promise<User | undefined> {
  const [user] = await db
    .insert(users)
    .values({
      username: u.username,
      email: u.email,
      passwordHash: u.passwordHash,
      isAdmin: u.isAdmin ?? false,
      emailVerifiedAt: u.emailVerifiedAt ?? null,
      createdAt: u.now,
      updatedAt: u.now,
    })
    .onConflictDoNothing()
    .returning();
  return user;
}

export async function updatePasswordHash(db: Db, userId: number, passwordHash: string, now: Date) {
  await db.update(users).set({ passwordHash, updatedAt: now }).where(eq(users.id, userId));
}

/** Marks the email verified (keeps the first verification time). */
export async function markEmailVerified(db: Db, userId: number, now: Date) {
  await db
    .update(users)
    .set({ emailVerifiedAt: sql`coalesce(${users.emailVerifiedAt}, ${now})`, updatedAt: now })
    .where(eq(users.id, userId));
}

export async function setAdmin(db: Db, userId: number, isAdmin: boolean, now: Date) {
  await db.update(users).set({ isAdmin, updatedAt: now }).where(eq(users.id, userId));
}
