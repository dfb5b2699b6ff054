import type { Locator, Page } from '@playwright/test';

// Touch target sizes (WCAG 2.2, 2.5.8): what a finger can hit on the page as it is now.

export type Target = { what: string; width: number; height: number };

/**
 * Every visible control of the page (links, buttons, fields, summaries; a radio or checkbox, and a file
 * input hidden under a styled face, is measured by its label) smaller than `min` px either way. A link inside a
 * sentence is left out: 2.5.8 excepts inline targets, whose height is the line's.
 */
export function smallTargets(page: Page, min: number): Promise<Target[]> {
  return page.evaluate((min) => {
    const visible = (el: Element) => {
      const style = getComputedStyle(el);
      if (style.visibility === 'hidden' || style.display === 'none') return false;
      const rect = el.getBoundingClientRect();
      return rect.width > 0 && rect.height > 0 && !el.closest('[aria-hidden=true], .visually-hidden');
    };
    /** A control painted invisible (opacity 0, 1 px) whose label is what the finger hits. */
    const hiddenUnderLabel = (el: Element) => {
      const rect = el.getBoundingClientRect();
      return (
        el instanceof HTMLInputElement &&
        (getComputedStyle(el).opacity === '0' || rect.width <= 1 || rect.height <= 1)
      );
    };
    /** A link in running text: its block holds words besides the link's own. */
    const inline = (el: Element) => {
      if (el.tagName !== 'A' || getComputedStyle(el).display !== 'inline') return false;
      const block = el.parentElement?.closest('p, li, dd, td, label, small');
      if (!block) return false;
      const own = (el.textContent ?? '').trim();
      const all = (block.textContent ?? '').trim();
      return all.length > own.length;
    };
    const name = (el: Element) => {
      const label = el.getAttribute('aria-label') ?? (el.textContent ?? '').trim().replace(/\s+/g, ' ');
      const tag = el.tagName.toLowerCase();
      const type = el.getAttribute('type');
      return `${tag}${type ? `[${type}]` : ''} "${label.slice(0, 60)}"`;
    };
    const seen = new Set<Element>();
    const small: { what: string; width: number; height: number }[] = [];
    const selector =
      'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button], [tabindex="0"]';
    for (const control of Array.from(document.querySelectorAll(selector))) {
      let target: Element = control;
      // A radio or checkbox is hit through its label; one painted invisible has nothing else.
      const label = control instanceof HTMLInputElement ? control.labels?.[0] : undefined;
      if (
        hiddenUnderLabel(control) ||
        (label && /^(radio|checkbox)$/.test(control.getAttribute('type') ?? ''))
      ) {
        if (!label) continue;
        target = label;
      }
      if (seen.has(target) || !visible(target) || target.classList.contains('skip-link')) continue;
      seen.add(target);
      if (inline(target)) continue;
      const rect = target.getBoundingClientRect();
      if (rect.width + 0.5 < min || rect.height + 0.5 < min) {
        small.push({ what: name(target), width: Math.round(rect.width), height: Math.round(rect.height) });
      }
    }
    return small;
  }, min);
}

/** The size of a control, to hold a main one to 44 x 44 on a touch screen. */
export async function targetSize(locator: Locator): Promise<{ width: number; height: number }> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not visible');
  return { width: Math.round(box.width), height: Math.round(box.height) };
}
