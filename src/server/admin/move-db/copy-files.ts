import path from 'node:path';
import type { Db } from '../../db/client.ts';
import { models } from '../../db/schema.ts';
import type { FileStore } from '../../storage/file-store.ts';
import { LocalFileStore } from '../../storage/local-file-store.ts';

export type CopyResult = {
  /** Distinct files the model rows name (a scaled copy shares its original's file). */
  files: number;
  copied: number;
  /** Already in the target store (a second run, or the same directory): left as they are. */
  alreadyThere: number;
  /** Named by a model row but in neither store: the model id and which of its files. */
  missing: { modelId: string; kind: 'file' | 'preview' | 'view'; key: string }[];
};

/**
 * Copies every file the model rows name from the old shop's local store (DATA_DIR/files) to the configured
 * store, skipping what is already there, so that running it again copies nothing; then checks that every
 * model row's files are in the target.
 */
export async function copyModelFiles(db: Db, sourceDir: string, target: FileStore): Promise<CopyResult> {
  const source = new LocalFileStore(path.resolve(sourceDir));
  const rows = await db
    .select({
      id: models.id,
      file: models.storageKey,
      preview: models.previewKey,
      view: models.viewKey,
    })
    .from(models)
    .orderBy(models.id);
  const keys = new Set<string>();
  for (const row of rows) for (const key of [row.file, row.preview, row.view]) if (key) keys.add(key);
  const result: CopyResult = { files: keys.size, copied: 0, alreadyThere: 0, missing: [] };
  const absent = new Set<string>();
  for (const key of keys) {
    if (await target.exists(key)) {
      result.alreadyThere++;
      continue;
    }
    const file = await source.get(key);
    if (!file) {
      absent.add(key);
      continue;
    }
    await target.put(key, { stream: file.stream });
    result.copied++;
  }
  // Every other key was found in the target or put there just now.
  for (const row of rows) {
    for (const [kind, key] of [
      ['file', row.file],
      ['preview', row.preview],
      ['view', row.view],
    ] as const) {
      if (key && absent.has(key)) {
        result.missing.push({ modelId: row.id, kind, key });
      }
    }
  }
  return result;
}

export function describeCopy(result: CopyResult): string[] {
  const lines = [
    `Model files: ${result.files} named by the models, ${result.copied} copied, ${result.alreadyThere} already in the store.`,
  ];
  if (result.missing.length > 0) {
    const shown = result.missing.slice(0, 10).map((m) => `  model ${m.modelId}: its ${m.kind} ${m.key}`);
    lines.push(
      `${result.missing.length} files are in neither store:`,
      ...shown,
      ...(result.missing.length > shown.length ? [`  and ${result.missing.length - shown.length} more`] : []),
    );
  }
  return lines;
}
