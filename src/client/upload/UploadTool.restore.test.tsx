// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider, useSession } from '../session/SessionProvider.tsx';
import { DEFAULT_CHOICES } from './choices.ts';
import { OPEN_CARDS_KEY } from './saved-list.ts';
import { readSavedModels, SAVED_MODELS_KEY, type SavedModel, serializeSavedModels } from './saved-models.ts';
import { cubePayload } from './testing.ts';
import UploadTool from './UploadTool.tsx';

// The model cards coming back after a reload: remembered in local storage, each model asked for again
// with GET /api/models/:id (a stubbed fetch whose answers the tests release one by one).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const payload = (id: string) => cubePayload(id, `${id.slice(2)}.stl`);

type Answer = { resolve(res: Response): void; reject(err: Error): void };
/** The model requests waiting for an answer, by model id. */
let asked: Map<string, Answer>;
/** The models taken off the owner's list (DELETE /api/models/:id). */
let removed: string[];

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  const id = /^\/api\/models\/([^/]+)$/.exec(url)?.[1];
  if (id && init?.method === 'DELETE') {
    removed.push(decodeURIComponent(id));
    return Promise.resolve(new Response(null, { status: 204 }));
  }
  if (id) {
    return new Promise<Response>((resolve, reject) => {
      asked.set(decodeURIComponent(id), { resolve, reject });
      init?.signal?.addEventListener('abort', () => reject(new DOMException('Aborted', 'AbortError')));
    });
  }
  if (url.endsWith('/api/quote')) {
    const body = JSON.parse(String(init?.body));
    return Promise.resolve(
      Response.json({ ...body, currency: 'usd', unitPrice: 13.1, lineTotal: 13.1 * body.quantity }),
    );
  }
  if (url.endsWith('/api/check_session.php')) return Promise.resolve(Response.json(session));
  return Promise.resolve(Response.json({ loggedIn: false }));
}

/** What GET /api/check_session.php answers. */
let session: { loggedIn: boolean; username?: string };

let container: HTMLDivElement;
let root: Root | null = null;

function remember(models: SavedModel[]) {
  localStorage.setItem(SAVED_MODELS_KEY, serializeSavedModels(models));
}

/** The nav bar's Logout, as far as the session goes. */
function LogoutButton() {
  const { logout } = useSession();
  return (
    <button type="button" onClick={() => void logout()}>
      Logout
    </button>
  );
}

async function mount() {
  root = createRoot(container);
  await act(async () => {
    root!.render(
      <MemoryRouter>
        <SessionProvider>
          <LogoutButton />
          <UploadTool />
        </SessionProvider>
      </MemoryRouter>,
    );
  });
}

function unmount() {
  if (root) act(() => root!.unmount());
  root = null;
}

/** Releases the answer to GET /api/models/:id. */
async function answer(id: string, res: Response | Error) {
  const pending = asked.get(id);
  if (!pending) throw new Error(`${id} was not asked for; asked: ${[...asked.keys()].join(', ')}`);
  asked.delete(id);
  await act(async () => (res instanceof Error ? pending.reject(res) : pending.resolve(res)));
}

const found = (id: string) => Response.json(payload(id));
const notFound = () => Response.json({ error: 'Model not found.' }, { status: 404 });

/** The saved models' rows, newest first. */
const titles = () =>
  Array.from(container.querySelectorAll('.saved-list .saved-name')).map((n) => n.textContent);
const text = () => container.textContent ?? '';
/** The row's button: named "Edit <file>" (or "Close <file>" when open) by the ids it is labelled by. */
const row = (name: string) =>
  Array.from(container.querySelectorAll<HTMLButtonElement>('button[aria-expanded]')).find(
    (b) => labelText(b) === `Edit ${name}` || labelText(b) === `Close ${name}`,
  )!;
const labelText = (el: Element) =>
  (el.getAttribute('aria-labelledby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ');
const describedText = (el: Element) =>
  (el.getAttribute('aria-describedby') ?? '')
    .split(' ')
    .map((id) => document.getElementById(id)?.textContent)
    .join(' ')
    .replace(/\s+/g, ' ');
const card = (name: string) =>
  Array.from(container.querySelectorAll('article')).find((a) => a.querySelector('h3')?.textContent === name)!;
/** Opens a row as its full card, and returns the card. */
async function open(name: string) {
  await act(async () => row(name).click());
  return card(name);
}
const checked = (article: Element) =>
  Array.from(article.querySelectorAll<HTMLInputElement>('input[type=radio]:checked')).map((r) => r.value);
const button = (name: string) =>
  Array.from(container.querySelectorAll('button')).find(
    (b) => (b.getAttribute('aria-label') ?? b.textContent) === name,
  )!;

beforeEach(() => {
  asked = new Map();
  removed = [];
  session = { loggedIn: false };
  localStorage.clear();
  sessionStorage.clear();
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  container = document.createElement('div');
  document.body.append(container);
});

afterEach(() => {
  unmount();
  container.remove();
  vi.unstubAllGlobals();
});

describe('UploadTool after a reload', () => {
  it('brings the cards back in their order with their picks, and forgets a model the server lost', async () => {
    const picks = { color: '#dc3545', strength: 5, quantityText: '2', notes: 'Flat side down.' } as const;
    remember([
      { key: 'k1', id: 'm_first', choices: picks },
      { key: 'k2', id: 'm_cleaned', choices: DEFAULT_CHOICES },
      { key: 'k3', id: 'm_third', choices: DEFAULT_CHOICES },
    ]);
    await mount();
    expect([...asked.keys()].sort()).toEqual(['m_cleaned', 'm_first', 'm_third']);
    expect(container.querySelector('[role=status]')?.textContent).toBe('Loading your models…');

    // The answers come back in another order; the cards keep the stored one.
    await answer('m_third', found('m_third'));
    expect(titles()).toEqual(['third.stl']);
    await answer('m_cleaned', notFound());
    await answer('m_first', found('m_first'));
    // Newest first, each a row; none open until asked.
    expect(titles()).toEqual(['third.stl', 'first.stl']);
    expect(container.querySelectorAll('article')).toHaveLength(0);
    expect(text()).not.toContain('Loading your models…');
    expect(text()).not.toContain('could not be loaded');

    const first = await open('first.stl');
    expect(checked(first)).toEqual(['#dc3545', '5']);
    expect(first.querySelector<HTMLInputElement>('input[type=number]')!.value).toBe('2');
    expect(first.querySelector('textarea')!.value).toBe('Flat side down.');
    expect(first.querySelector('img')!.getAttribute('src')).toBe('/api/models/m_first/preview.png?color=red');
    expect(checked(await open('third.stl'))).toEqual(['#007bff', '3']);

    expect(readSavedModels().map((m) => m.id)).toEqual(['m_first', 'm_third']);
  });

  it('keeps a model that did not answer, says so, and asks again', async () => {
    remember([
      { key: 'k1', id: 'm_a', choices: DEFAULT_CHOICES },
      { key: 'k2', id: 'm_b', choices: DEFAULT_CHOICES },
      { key: 'k3', id: 'm_c', choices: DEFAULT_CHOICES },
    ]);
    await mount();
    await answer('m_a', found('m_a'));
    await answer('m_b', new TypeError('Failed to fetch'));
    await answer('m_c', Response.json({ error: 'Internal Server Error' }, { status: 500 }));
    expect(titles()).toEqual(['a.stl']);
    expect(text()).toContain('2 of your models could not be loaded just now.');
    expect(readSavedModels().map((m) => m.id)).toEqual(['m_a', 'm_b', 'm_c']);

    await act(async () => button('Try again').click());
    expect([...asked.keys()].sort()).toEqual(['m_b', 'm_c']);
    await answer('m_c', found('m_c'));
    await answer('m_b', found('m_b'));
    expect(titles()).toEqual(['c.stl', 'b.stl', 'a.stl']);
    expect(text()).not.toContain('could not be loaded');
  });

  it('a card removed stays gone', async () => {
    remember([
      { key: 'k1', id: 'm_keep', choices: DEFAULT_CHOICES },
      { key: 'k2', id: 'm_drop', choices: DEFAULT_CHOICES },
    ]);
    await mount();
    await answer('m_keep', found('m_keep'));
    await answer('m_drop', found('m_drop'));
    await open('drop.stl');
    await act(async () => button('Remove drop.stl').click());
    expect(titles()).toEqual(['keep.stl']);
    expect(readSavedModels().map((m) => m.id)).toEqual(['m_keep']);
    // Off the account's list on the server too, so that another device does not list it.
    expect(removed).toEqual(['m_drop']);

    unmount();
    await mount();
    expect([...asked.keys()]).toEqual(['m_keep']);
  });

  it('shows the cards at once when coming back to the page, and checks them again', async () => {
    remember([
      { key: 'k1', id: 'm_back', choices: DEFAULT_CHOICES },
      { key: 'k2', id: 'm_lost', choices: DEFAULT_CHOICES },
    ]);
    await mount();
    await answer('m_back', found('m_back'));
    await answer('m_lost', found('m_lost'));
    unmount();

    await mount();
    expect(titles()).toEqual(['lost.stl', 'back.stl']);
    expect(text()).not.toContain('Loading your models…');
    await answer('m_lost', notFound());
    await answer('m_back', found('m_back'));
    expect(titles()).toEqual(['back.stl']);
    expect(readSavedModels().map((m) => m.id)).toEqual(['m_back']);
  });

  it('shows each model as a row that opens in place as its full card, and keeps it open for the tab', async () => {
    const picks = { color: '#dc3545', strength: 5, quantityText: '2', notes: '' } as const;
    remember([
      { key: 'k1', id: 'm_a', choices: picks },
      { key: 'k2', id: 'm_b', choices: DEFAULT_CHOICES },
    ]);
    await mount();
    await answer('m_a', found('m_a'));
    await answer('m_b', found('m_b'));
    const a = row('a.stl');
    expect(a.getAttribute('aria-expanded')).toBe('false');
    expect(a.hasAttribute('aria-controls')).toBe(false);
    expect(labelText(a)).toBe('Edit a.stl');
    // The row's facts are its description: size, color, strength, quantity and the price of one.
    expect(describedText(a)).toBe('20.0 x 20.0 x 20.0 mm Red · Solid · Qty 2 $18.35');
    expect(container.querySelectorAll('article')).toHaveLength(0);

    await act(async () => a.click());
    expect(a.getAttribute('aria-expanded')).toBe('true');
    expect(labelText(a)).toBe('Close a.stl');
    const panel = document.getElementById(a.getAttribute('aria-controls')!)!;
    expect(panel.querySelector('article h3')?.textContent).toBe('a.stl');
    expect(panel.querySelector('[data-testid=unit-price]')).not.toBeNull();
    expect(row('b.stl').getAttribute('aria-expanded')).toBe('false');

    // Back on the page (or reloaded) in this tab: the same row is open.
    unmount();
    await mount();
    expect(row('a.stl').getAttribute('aria-expanded')).toBe('true');
    expect(row('b.stl').getAttribute('aria-expanded')).toBe('false');
    await act(async () => row('a.stl').click());
    expect(container.querySelectorAll('article')).toHaveLength(0);
    expect(sessionStorage.getItem(OPEN_CARDS_KEY)).toBeNull();
  });

  it('starts empty from a malformed value, without asking the server', async () => {
    localStorage.setItem(SAVED_MODELS_KEY, '{"version":1,"models":"oops"');
    await mount();
    expect(asked.size).toBe(0);
    expect(titles()).toEqual([]);
    expect(container.querySelector('input[type=file]')).not.toBeNull();
  });

  it('leaves the list alone when the page is left before the answers come', async () => {
    remember([{ key: 'k1', id: 'm_slow', choices: DEFAULT_CHOICES }]);
    await mount();
    expect(asked.has('m_slow')).toBe(true);
    unmount();
    expect(readSavedModels().map((m) => m.id)).toEqual(['m_slow']);
  });

  it('forgets the cards on logout, on screen and in storage, as the cart is forgotten', async () => {
    session = { loggedIn: true, username: 'maker' };
    remember([{ key: 'k1', id: 'm_mine', choices: DEFAULT_CHOICES }]);
    await mount();
    await answer('m_mine', found('m_mine'));
    expect(titles()).toEqual(['mine.stl']);

    await act(async () => button('Logout').click());
    expect(titles()).toEqual([]);
    expect(localStorage.getItem(SAVED_MODELS_KEY)).toBeNull();
    expect(readSavedModels()).toEqual([]);
  });
});
