import { randomBytes } from 'node:crypto';

// Model ids are unguessable (128 random bits): the id in a URL is not what protects a file (the access
// check is), but it must not be enumerable either.

const MODEL_ID = /^m_[A-Za-z0-9_-]{22}$/;

export function newModelId(): string {
  return `m_${randomBytes(16).toString('base64url')}`;
}

export function isModelId(value: unknown): value is string {
  return typeof value === 'string' && MODEL_ID.test(value);
}
