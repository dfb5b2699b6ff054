import { useEffect } from 'react';
import { Outlet, ScrollRestoration, useLocation } from 'react-router';
import { Footer } from './Footer.tsx';
import { NavBar } from './NavBar.tsx';
import { NotFoundNotice } from './NotFound.tsx';

/** Scrolls to `#id` after navigation (e.g. the cart icon's /#cart-section), once the target exists. */
/** How long a hash target is kept in view while the page above it is still loading (model cards, previews). */
const HOLD_MS = 2500;

function HashScroll() {
  const { hash, pathname } = useLocation();
  // pathname is a dependency on purpose: the same hash on another page must scroll again.
  // biome-ignore lint/correctness/useExhaustiveDependencies: see above
  useEffect(() => {
    if (!hash) return;
    const id = decodeURIComponent(hash.slice(1));
    let tries = 0;
    let stopHolding = () => {};
    const timer = setInterval(() => {
      const el = document.getElementById(id);
      if (el || ++tries > 40) {
        clearInterval(timer);
        if (!el) return;
        el.scrollIntoView({ behavior: 'smooth', block: 'start' });
        stopHolding = holdInView(el);
      }
    }, 50);
    return () => {
      clearInterval(timer);
      stopHolding();
    };
  }, [hash, pathname]);
  return null;
}

/**
 * Content that arrives above the target after the first scroll (the upload tool restoring its model cards)
 * would push it out of view: while the page's height changes, scroll to it again, until the time is up or
 * the reader scrolls, taps or types themselves.
 */
function holdInView(el: HTMLElement): () => void {
  if (typeof ResizeObserver === 'undefined') return () => {};
  let lastTop = el.getBoundingClientRect().top + window.scrollY;
  const observer = new ResizeObserver(() => {
    const top = el.getBoundingClientRect().top + window.scrollY;
    if (Math.abs(top - lastTop) < 1) return;
    lastTop = top;
    el.scrollIntoView({ block: 'start' });
  });
  const stop = () => {
    observer.disconnect();
    clearTimeout(timeout);
    for (const type of USER_MOVES) window.removeEventListener(type, stop);
  };
  const timeout = setTimeout(stop, HOLD_MS);
  observer.observe(document.body);
  for (const type of USER_MOVES) window.addEventListener(type, stop, { passive: true, once: true });
  return stop;
}

const USER_MOVES = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <NavBar />
      <main id="main" tabIndex={-1}>
        <NotFoundNotice />
        <Outlet />
      </main>
      <Footer />
      <ScrollRestoration />
      <HashScroll />
    </>
  );
}
