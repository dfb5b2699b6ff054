// The local-storage key of the remembered model cards, apart from their schema so that the session
// code can forget them on logout without pulling the upload tool's code into the first page.

export const SAVED_MODELS_KEY = 'printUploads';

/** On logout, as the cart is cleared: the next person at this browser does not get these cards. */
export function forgetSavedModels(): void {
  try {
    globalThis.localStorage?.removeItem(SAVED_MODELS_KEY);
  } catch {
    // Forbidden storage holds nothing to forget.
  }
}
