import { and, asc, count, desc, eq, gt, inArray, isNull, min, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { type Model, models, orderItems, orders } from '../db/schema.ts';
import type { ModelExtension } from './file-name.ts';
import { type Owner, toVisitorHash } from './owner.ts';

// Model rows. A row's measurements already include its `scale`; rows may share one stored file
// (`storage_key`) and preview (`preview_key`): a re-upload of the same bytes, a scaled copy.

export type NewModel = typeof models.$inferInsert;

export function ownedBy(owner: Owner): SQL {
  return owner.userId !== null
    ? eq(models.ownerUserId, owner.userId)
    : and(eq(models.ownerVisitorHash, owner.visitorHash), isNull(models.ownerUserId))!;
}

function formatsOf(extension: ModelExtension): string[] {
  if (extension === 'stl') return ['stl-binary', 'stl-ascii'];
  return [extension];
}

export async function insertModel(db: Db, row: NewModel): Promise<Model> {
  const [inserted] = await db.insert(models).values(row).returning();
  return inserted!;
}

export async function findModel(db: Db, id: string): Promise<Model | undefined> {
  const [row] = await db.select().from(models).where(eq(models.id, id)).limit(1);
  return row;
}

/**
 * Restarts a model's retention clock (a repeated upload of it, from the client `uploadIpHash`). Undefined
 * when the row is gone. One UPDATE, so it holds the row lock: the cleanup's DELETE, which re-checks the
 * age of each row, either runs first (nothing to touch, the caller makes a new model) or waits and then
 * sees a fresh row it leaves alone (cleanup.ts).
 */
export async function touchModel(
  db: Db,
  id: string,
  now: Date,
  uploadIpHash: string | null = null,
): Promise<Model | undefined> {
  const [row] = await db
    .update(models)
    // Uploaded again: back in the owner's list too.
    .set({ createdAt: now, uploadIpHash, hiddenAt: null })
    .where(eq(models.id, id))
    .returning();
  return row;
}

/**
 * Inserts `row`, which reuses the stored file and preview of the model `sourceId`, while holding a share
 * lock on that model; undefined (nothing inserted) when it is gone. The cleanup deletes a stored file only
 * once no row uses it; with this lock a new user of a file can only appear while an old one still exists,
 * so a file seen unused stays unused and its deletion never pulls it from under a new row.
 */
export async function insertSharingFile(db: Db, sourceId: string, row: NewModel): Promise<Model | undefined> {
  return db.transaction(async (tx) => {
    const [source] = await tx
      .select({ id: models.id })
      .from(models)
      .where(eq(models.id, sourceId))
      .for('share');
    return source ? insertModel(tx, row) : undefined;
  });
}

/** The owner's listed models (GET /api/models), newest first. */
export async function listOwnedModels(db: Db, owner: Owner, limit: number): Promise<Model[]> {
  return db
    .select()
    .from(models)
    .where(and(ownedBy(owner), isNull(models.hiddenAt)))
    .orderBy(desc(models.createdAt), desc(models.id))
    .limit(limit);
}

/** Takes a model off its owner's list (the row stays: a cart or an order may still name it). */
export async function hideModel(db: Db, id: string, now: Date): Promise<void> {
  await db.update(models).set({ hiddenAt: now }).where(eq(models.id, id));
}

/** A rescale: the new model takes the old one's place in the owner's list. */
export async function listInstead(db: Db, fromId: string, toId: string, now: Date): Promise<void> {
  await db
    .update(models)
    .set({
      hiddenAt: sql`case when ${models.id} = ${toId} then null else ${now.toISOString()}::timestamptz end`,
    })
    .where(inArray(models.id, [fromId, toId]));
}

/** The owner's own unscaled upload of the same bytes under the same name (a repeated upload). */
export async function findOwnedUpload(
  db: Db,
  owner: Owner,
  file: { contentHash: string; extension: ModelExtension; fileName: string },
): Promise<Model | undefined> {
  const [row] = await db
    .select()
    .from(models)
    .where(
      and(
        ownedBy(owner),
        eq(models.contentHash, file.contentHash),
        inArray(models.format, formatsOf(file.extension)),
        eq(models.fileName, file.fileName),
        eq(models.scale, 1),
      ),
    )
    .orderBy(desc(models.createdAt))
    .limit(1);
  return row;
}

/**
 * The owner's row of the same bytes read the same way (another name, a scaled copy): its file and analysis
 * can be reused. Never another owner's: how fast an upload answers must not tell whether someone else
 * uploaded the same design.
 */
export async function findSameContent(
  db: Db,
  owner: Owner,
  file: { contentHash: string; extension: ModelExtension },
): Promise<Model | undefined> {
  const [row] = await db
    .select()
    .from(models)
    .where(
      and(
        ownedBy(owner),
        eq(models.contentHash, file.contentHash),
        inArray(models.format, formatsOf(file.extension)),
      ),
    )
    // An unscaled row first (its numbers need no dividing back), then the newest (furthest from cleanup).
    .orderBy(sql`abs(${models.scale} - 1)`, desc(models.createdAt))
    .limit(1);
  return row;
}

/** The owner's copy of a stored file at a given scale (so pressing 'scale' twice makes one row). */
export async function findOwnedScaled(
  db: Db,
  owner: Owner,
  of: { storageKey: string; fileName: string; scale: number },
): Promise<Model | undefined> {
  const [row] = await db
    .select()
    .from(models)
    .where(
      and(
        ownedBy(owner),
        eq(models.storageKey, of.storageKey),
        eq(models.fileName, of.fileName),
        sql`abs(${models.scale} - ${of.scale}) <= ${of.scale * 1e-9}`,
      ),
    )
    .orderBy(asc(models.createdAt))
    .limit(1);
  return row;
}

export type UploadStats = { recentCount: number; oldestRecent: Date | null; storedBytes: number };

/** For the quota: models made since `since`, and the bytes of the distinct files the owner holds. */
export async function uploadStats(db: Db, owner: Owner, since: Date): Promise<UploadStats> {
  const [recent] = await db
    .select({ n: count(), oldest: min(models.createdAt) })
    .from(models)
    .where(and(ownedBy(owner), gt(models.createdAt, since)));
  const files = db
    .selectDistinctOn([models.storageKey], { size: models.sizeBytes })
    .from(models)
    .where(ownedBy(owner))
    .as('files');
  const [stored] = await db.select({ total: sql<string>`coalesce(sum(${files.size}), 0)` }).from(files);
  const oldest = recent?.oldest ?? null;
  return {
    recentCount: Number(recent?.n ?? 0),
    oldestRecent: oldest === null ? null : new Date(oldest),
    storedBytes: Number(stored?.total ?? 0),
  };
}

export type IpUploadStats = { recentCount: number; oldestRecent: Date | null; recentBytes: number };

/** For the per-IP quota: models uploaded from the address since `since`, and their distinct files' bytes. */
export async function ipUploadStats(db: Db, uploadIpHash: string, since: Date): Promise<IpUploadStats> {
  const recentFrom = and(eq(models.uploadIpHash, uploadIpHash), gt(models.createdAt, since));
  const [recent] = await db
    .select({ n: count(), oldest: min(models.createdAt) })
    .from(models)
    .where(recentFrom);
  const files = db
    .selectDistinctOn([models.storageKey], { size: models.sizeBytes })
    .from(models)
    .where(recentFrom)
    .as('files');
  const [bytes] = await db.select({ total: sql<string>`coalesce(sum(${files.size}), 0)` }).from(files);
  const oldest = recent?.oldest ?? null;
  return {
    recentCount: Number(recent?.n ?? 0),
    oldestRecent: oldest === null ? null : new Date(oldest),
    recentBytes: Number(bytes?.total ?? 0),
  };
}

/**
 * Moves a browser's models to an account (call it at login, with the `visitor` cookie's raw value; the
 * stored hash is refused). Answers how many moved; the browser no longer owns them on its own afterwards.
 */
export async function claimVisitorModels(
  db: Db,
  visitorCookie: string | null | undefined,
  userId: number,
): Promise<number> {
  const hash = toVisitorHash(visitorCookie);
  if (hash === null) return 0;
  const moved = await db
    .update(models)
    .set({ ownerUserId: userId, ownerVisitorHash: null })
    .where(and(eq(models.ownerVisitorHash, hash), isNull(models.ownerUserId)))
    .returning({ id: models.id });
  return moved.length;
}

/** Whether the user has an order (any status) holding the model. */
export async function isInOrderOf(db: Db, modelId: string, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ id: orderItems.id })
    .from(orderItems)
    .innerJoin(orders, eq(orders.id, orderItems.orderId))
    .where(and(eq(orderItems.modelId, modelId), eq(orders.userId, userId)))
    .limit(1);
  return row !== undefined;
}

/** Whether any row still uses a stored file or preview. */
export async function isKeyInUse(db: Db, key: string): Promise<boolean> {
  const [row] = await db
    .select({ id: models.id })
    .from(models)
    .where(or(eq(models.storageKey, key), eq(models.previewKey, key), eq(models.viewKey, key)))
    .limit(1);
  return row !== undefined;
}
