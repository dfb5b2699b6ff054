// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { forgetSavedModels, SAVED_MODELS_KEY } from './saved-models-key.ts';

describe('forgetSavedModels', () => {
  it('removes the remembered cards and nothing else (the logout from any page)', () => {
    localStorage.setItem(SAVED_MODELS_KEY, '{"version":1,"models":[]}');
    localStorage.setItem('other', 'kept');
    forgetSavedModels();
    expect(localStorage.getItem(SAVED_MODELS_KEY)).toBeNull();
    expect(localStorage.getItem('other')).toBe('kept');
  });
});
