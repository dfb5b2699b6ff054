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
