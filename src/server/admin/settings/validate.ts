import type { z } from 'zod';
import {
  issueField,
  type SettingsIssue,
  type SettingsSection,
  settingsIssueMessage,
} from '../../../shared/admin-settings.ts';
import { HttpError } from '../../plugins/error-handler.ts';

// A refused setting is a 400 `{ error, field }`: the sentence names the setting as the panel labels it, and
// `field` is its path in the section's values ('quantityTiers.1.minQuantity'), for the panel to show the
// sentence beside it. Nothing is saved.

export class SettingsInputError extends HttpError {
  constructor(
    message: string,
    readonly field: string,
  ) {
    super(400, message);
  }
}

/** A request body's `values` is the section's values: paths are read from there. */
const fromValues = (path: readonly PropertyKey[]) => (path[0] === 'values' ? path.slice(1) : path);

/** Parses `input` with `schema`; the first problem throws a SettingsInputError naming its field. */
export function parseSettings<S extends z.ZodType>(
  section: SettingsSection,
  schema: S,
  input: unknown,
): z.infer<S> {
  const parsed = schema.safeParse(input, {
    error: (issue) =>
      settingsIssueMessage(section, { ...(issue as SettingsIssue), path: fromValues(issue.path ?? []) }),
  });
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  if (!issue) throw new SettingsInputError('The settings are not valid.', '');
  const unknownKeys = issue.code === 'unrecognized_keys' ? issue.keys : undefined;
  throw new SettingsInputError(
    issue.message,
    issueField({
      code: issue.code,
      path: fromValues(issue.path),
      ...(unknownKeys ? { keys: unknownKeys } : {}),
    }),
  );
}
