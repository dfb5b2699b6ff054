// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CART_KEY, clearCart } from '../cart/cart-store.ts';
import { SessionProvider } from '../session/SessionProvider.tsx';
import { readSavedModels, SAVED_MODELS_KEY } from './saved-models.ts';
import { cubePayload } from './testing.ts';
import UploadTool from './UploadTool.tsx';

// The upload tool in a DOM: a fake XMLHttpRequest plays the upload endpoint, a stubbed fetch the quotes.

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

class FakeXhr extends EventTarget {
  static all: FakeXhr[] = [];
  upload = new EventTarget();
  status = 0;
  responseText = '';
  withCredentials = false;
  method = '';
  url = '';
  body: FormData | null = null;
  constructor() {
    super();
    FakeXhr.all.push(this);
  }
  open(method: string, url: string) {
    this.method = method;
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
  }
  abort() {
    this.dispatchEvent(new Event('abort'));
  }
  progress(loaded: number, total: number) {
    this.upload.dispatchEvent(
      Object.assign(new Event('progress'), { loaded, total, lengthComputable: true }),
    );
  }
  respond(status: number, body: unknown) {
    this.upload.dispatchEvent(new Event('load'));
    this.status = status;
    this.responseText = JSON.stringify(body);
    this.dispatchEvent(new Event('load'));
  }
}

const model = cubePayload('m_cube', 'cube.stl');

const quotes: { strength: number; color: string; quantity: number }[] = [];

function fakeFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const url = String(input);
  if (url.endsWith('/api/quote')) {
    const body = JSON.parse(String(init?.body));
    quotes.push(body);
    const unitPrice = model.prices[String(body.strength) as '1'] + 0.5;
    return Promise.resolve(
      Response.json({
        ...body,
        currency: 'usd',
        unitPrice,
        lineTotal: unitPrice * body.quantity,
        breakdown: {},
      }),
    );
  }
  if (url === `/api/models/${model.id}`) return Promise.resolve(Response.json(model));
  return Promise.resolve(Response.json({ loggedIn: false }));
}

let container: HTMLDivElement;
let root: Root;

async function mount() {
  root = createRoot(container);
  await act(async () => {
    root.render(
      <MemoryRouter>
        <SessionProvider>
          <UploadTool />
        </SessionProvider>
      </MemoryRouter>,
    );
  });
}

beforeEach(async () => {
  FakeXhr.all = [];
  quotes.length = 0;
  vi.stubGlobal('XMLHttpRequest', FakeXhr);
  vi.stubGlobal('fetch', vi.fn(fakeFetch));
  clearCart();
  localStorage.removeItem(SAVED_MODELS_KEY);
  sessionStorage.clear();
  container = document.createElement('div');
  document.body.append(container);
  await mount();
});

afterEach(() => {
  act(() => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

async function until(check: () => boolean, what: string) {
  const end = Date.now() + 3000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`Timed out waiting for ${what}:\n${container.textContent}`);
    await act(() => new Promise((r) => setTimeout(r, 20)));
  }
}

async function choose(files: File[]) {
  const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
  Object.defineProperty(input, 'files', { value: files, configurable: true });
  await act(async () => {
    input.dispatchEvent(new Event('change', { bubbles: true }));
  });
}

const text = () => container.textContent ?? '';
const fetchedModel = () =>
  vi.mocked(fetch).mock.calls.some(([url]) => String(url) === `/api/models/${model.id}`);

describe('UploadTool', () => {
  it('names the accepted files and offers a labelled file input', () => {
    const input = container.querySelector<HTMLInputElement>('input[type=file]')!;
    expect(input.accept).toBe('.stl,.obj,.3mf');
    expect(input.multiple).toBe(true);
    expect(container.querySelector(`label[for="${input.id}"]`)?.textContent).toBe('Choose files');
    expect(text()).toContain('STL, OBJ or 3MF, up to 64 MB each');
  });

  it('refuses a .txt file without sending it', async () => {
    await choose([new File(['hello'], 'notes.txt')]);
    expect(container.querySelector('[role=alert]')?.textContent).toBe(
      'Only .stl, .obj and .3mf files are accepted.',
    );
    expect(FakeXhr.all).toHaveLength(0);
  });

  it('shows progress, then analysing, then a priced card that goes into the cart', async () => {
    const file = new File([new Uint8Array(2 * 1024 * 1024)], 'cube.stl');
    await choose([file]);
    const [xhr] = FakeXhr.all;
    expect(xhr).toMatchObject({ method: 'POST', url: '/api/uploads' });
    expect(xhr!.body!.get('file')).toBeInstanceOf(File);

    await act(async () => xhr!.progress(1024 * 1024, 2 * 1024 * 1024 + 200));
    const progress = container.querySelector('progress')!;
    expect(progress.getAttribute('aria-label')).toBe('Uploading cube.stl');
    expect(text()).toContain('1.0 MB of 2.0 MB');

    await act(async () => xhr!.upload.dispatchEvent(new Event('load')));
    expect(text()).toContain('Analysing…');

    await act(async () => xhr!.respond(201, model));
    expect(container.querySelector('article h3')?.textContent).toBe('cube.stl');
    expect(text()).toContain('20.0 x 20.0 x 20.0 mm');
    expect(text()).toContain('8.00 cm³');
    const unit = () => container.querySelector('[data-testid=unit-price]')!.textContent;
    expect(unit()).toBe('$13.10');
    await until(() => unit() === '$13.60', 'the quote');
    expect(quotes.at(-1)).toEqual({ modelId: 'm_cube', color: '#007bff', strength: 3, quantity: 1 });

    const solid = Array.from(container.querySelectorAll<HTMLInputElement>('input[type=radio]')).find(
      (r) => r.value === '5',
    )!;
    expect(solid.closest('label')?.textContent).toBe('Solid5/5$18.35');
    await act(async () => solid.click());
    await until(() => unit() === '$18.85', 'the Solid quote');

    const add = Array.from(container.querySelectorAll('button')).find(
      (b) => b.textContent === 'Add to cart',
    )!;
    await act(async () => add.click());
    expect(text()).toContain('Added to cart');
    const cart = JSON.parse(localStorage.getItem(CART_KEY)!);
    expect(cart).toHaveLength(1);
    expect(cart[0]).toMatchObject({
      filePath: 'm_cube',
      strength: 5,
      cost: 18.85,
      quantity: 1,
      color: '#007bff',
    });
  });

  it("says the picture is being drawn until it arrives (a big model's comes after its price)", async () => {
    await choose([new File(['solid'], 'cube.stl')]);
    await act(async () => FakeXhr.all[0]!.respond(201, model));
    const img = container.querySelector<HTMLImageElement>('.model-preview img')!;
    // The picture in the card's color (the default, blue, until another is picked).
    expect(img.getAttribute('src')).toBe(`${model.previewImage}?color=blue`);
    expect(container.querySelector('.model-preview')?.textContent).toBe('Drawing preview…');
    await act(async () => img.dispatchEvent(new Event('load')));
    expect(container.querySelector('.model-preview')?.textContent).toBe('');
  });

  it('shows No Preview when the picture cannot be had', async () => {
    await choose([new File(['solid'], 'cube.stl')]);
    await act(async () => FakeXhr.all[0]!.respond(201, model));
    const img = container.querySelector<HTMLImageElement>('.model-preview img')!;
    await act(async () => img.dispatchEvent(new Event('error')));
    expect(container.querySelector('.model-preview img')).toBeNull();
    expect(container.querySelector('.model-preview')?.textContent).toBe('No Preview');
  });

  it("shows a refused model's error without Retry: it would only be refused again", async () => {
    await choose([new File(['x'], 'broken.stl')]);
    await act(async () => FakeXhr.all[0]!.respond(422, { error: 'This file is not an STL or OBJ model.' }));
    expect(container.querySelector('[role=alert]')?.textContent).toBe(
      'This file is not an STL or OBJ model.',
    );
    const buttons = Array.from(container.querySelectorAll('button')).map((b) => b.textContent);
    expect(buttons).not.toContain('Retry');
  });

  it("shows a busy server's error with Retry, and retries", async () => {
    await choose([new File(['x'], 'busy.stl')]);
    await act(async () => FakeXhr.all[0]!.respond(503, { error: 'We are analysing many models right now.' }));
    expect(container.querySelector('[role=alert]')?.textContent).toBe(
      'We are analysing many models right now.',
    );
    const retry = Array.from(container.querySelectorAll('button')).find((b) => b.textContent === 'Retry')!;
    await act(async () => retry.click());
    expect(FakeXhr.all).toHaveLength(2);
    expect(container.querySelector('[role=alert]')).toBeNull();
  });

  it('sends the first file alone (it brings the visitor cookie), then two at a time', async () => {
    await choose(['a', 'b', 'c', 'd'].map((n) => new File(['x'], `${n}.stl`)));
    expect(FakeXhr.all).toHaveLength(1);
    expect(text()).toContain('Waiting to upload…');
    await act(async () => FakeXhr.all[0]!.respond(201, { ...model, id: 'm_a', fileName: 'a.stl' }));
    expect(FakeXhr.all).toHaveLength(3);
    await act(async () => FakeXhr.all[1]!.respond(201, { ...model, id: 'm_b', fileName: 'b.stl' }));
    expect(FakeXhr.all).toHaveLength(4);
  });

  it("opens a new upload's card, and folds it into its row, newest first, once another upload starts", async () => {
    const answer = (n: number, name: string) =>
      act(async () => FakeXhr.all[n]!.respond(201, { ...model, id: `m_${name}`, fileName: `${name}.stl` }));
    const openCards = () => Array.from(container.querySelectorAll('article h3')).map((h) => h.textContent);
    const rows = () =>
      Array.from(container.querySelectorAll('.saved-list .saved-name')).map((n) => n.textContent);

    await choose([new File(['x'], 'a.stl')]);
    await answer(0, 'a');
    expect(openCards()).toEqual(['a.stl']);
    // A file refused at once starts nothing: the card stays open.
    await choose([new File(['x'], 'notes.txt')]);
    expect(openCards()).toEqual(['a.stl']);

    await choose([new File(['x'], 'b.stl'), new File(['x'], 'c.stl')]);
    expect(openCards()).toEqual([]);
    expect(rows()).toEqual(['a.stl']);
    await answer(1, 'b');
    await answer(2, 'c');
    expect(rows()).toEqual(['c.stl', 'b.stl', 'a.stl']);
    expect(openCards()).toEqual(['c.stl', 'b.stl']);

    // The first one opens again in place, as its full card, and closes.
    const rowA = Array.from(container.querySelectorAll('.saved-model')).at(-1)!.querySelector('button')!;
    expect(rowA.getAttribute('aria-expanded')).toBe('false');
    await act(async () => rowA.click());
    expect(openCards()).toEqual(['c.stl', 'b.stl', 'a.stl']);
    await act(async () => rowA.click());
    expect(openCards()).toEqual(['c.stl', 'b.stl']);
  });

  it('remembers the card and its picks, and brings them back after a reload', async () => {
    await choose([new File(['x'], 'cube.stl')]);
    await act(async () => FakeXhr.all[0]!.respond(201, model));
    const radio = (value: string) =>
      container.querySelector<HTMLInputElement>(`article input[type=radio][value="${value}"]`)!;
    await act(async () => radio('#dc3545').click());
    await act(async () => radio('4').click());
    const notes = container.querySelector('textarea')!;
    await act(async () => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, 'value')!.set!.call(notes, 'Matte.');
      notes.dispatchEvent(new Event('input', { bubbles: true }));
    });
    expect(readSavedModels()).toEqual([
      {
        key: expect.any(String),
        id: 'm_cube',
        choices: { color: '#dc3545', strength: 4, quantityText: '1', notes: 'Matte.' },
      },
    ]);

    act(() => root.unmount());
    container.replaceChildren();
    await mount();
    await until(() => fetchedModel(), 'the model asked for again');
    expect(container.querySelector('article h3')?.textContent).toBe('cube.stl');
    expect(radio('#dc3545').checked).toBe(true);
    expect(radio('4').checked).toBe(true);
    expect(container.querySelector('textarea')!.value).toBe('Matte.');
  });
});
