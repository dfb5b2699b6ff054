// @vitest-environment jsdom
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { createMemoryRouter, Link, Outlet, RouterProvider } from 'react-router';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NotFoundNotice, NotFoundRedirect } from './NotFound.tsx';
import { notFoundPath, SHOWN_PATH_MAX, shownPath } from './not-found.ts';

// An unknown path lands on the home page, which says which page was not found (issue #26).

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

describe('notFoundPath', () => {
  it('reads the path only from the redirect’s own state', () => {
    expect(notFoundPath({ notFound: '/no-such-page' })).toBe('/no-such-page');
    for (const other of [null, undefined, 'x', {}, { notFound: 3 }, { notFound: '' }, { from: '/orders' }]) {
      expect(notFoundPath(other)).toBeNull();
    }
  });
});

describe('shownPath', () => {
  it('shows a short path as typed, escapes decoded, a malformed escape as it came', () => {
    expect(shownPath('/no-such-page')).toBe('/no-such-page');
    expect(shownPath('/caf%C3%A9%20menu')).toBe('/café menu');
    expect(shownPath('/100%')).toBe('/100%');
  });

  it('cuts a long path to its start and end around an ellipsis', () => {
    const long = `/${'a'.repeat(100)}/end-of-it`;
    const shown = shownPath(long);
    expect(Array.from(shown)).toHaveLength(SHOWN_PATH_MAX);
    expect(shown.startsWith('/aaaa')).toBe(true);
    expect(shown.endsWith('end-of-it')).toBe(true);
    expect(shown).toContain('…');
  });
});

describe('an unknown path', () => {
  let container: HTMLDivElement;
  let root: Root;

  beforeEach(() => {
    container = document.createElement('div');
    document.body.append(container);
  });
  afterEach(() => {
    act(() => root.unmount());
    container.remove();
  });

  async function visit(path: string) {
    const router = createMemoryRouter(
      [
        {
          element: (
            <main>
              <NotFoundNotice />
              <Outlet />
            </main>
          ),
          children: [
            { path: '/', element: <Link to="/about">Home page</Link> },
            { path: '/about', element: <h1>About us</h1> },
            { path: '*', element: <NotFoundRedirect /> },
          ],
        },
      ],
      { initialEntries: [path] },
    );
    root = createRoot(container);
    await act(async () => root.render(<RouterProvider router={router} />));
    return router;
  }
  const notice = () => container.querySelector('[role="status"]');

  it('lands on the home page with a notice naming the path', async () => {
    const router = await visit('/no-such-page');
    expect(router.state.location.pathname).toBe('/');
    expect(container.textContent).toContain('Home page');
    expect(notice()?.textContent).toBe(
      "We couldn't find the page /no-such-page. Here is the home page instead.",
    );
  });

  it('shows markup in the path as text, never as HTML', async () => {
    await visit('/<img src=x onerror=alert(1)>');
    expect(notice()?.textContent).toContain('/<img src=x onerror=alert(1)>');
    expect(container.querySelector('img')).toBeNull();
  });

  it('is gone after the next navigation, and at once when dismissed', async () => {
    await visit('/no-such-page');
    await act(async () => (container.querySelector('a') as HTMLAnchorElement).click());
    expect(container.textContent).toBe('About us');
    expect(notice()).toBeNull();

    act(() => root.unmount());
    await visit('/mistyped');
    const dismiss = container.querySelector('button[aria-label="Dismiss this notice"]') as HTMLButtonElement;
    await act(async () => dismiss.click());
    expect(notice()).toBeNull();
    expect(container.textContent).toBe('Home page');
  });
});
