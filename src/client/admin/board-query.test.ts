import { describe, expect, it } from 'vitest';
import { csvQuery, DEFAULT_FILTERS, filtersToParams, listQuery, readFilters } from './board-query.ts';

describe('the board filters in the query string', () => {
  it('reads what the URL says and falls back to the defaults for anything else', () => {
    expect(readFilters(new URLSearchParams(''))).toEqual(DEFAULT_FILTERS);
    expect(readFilters(new URLSearchParams('tab=review&q=ada&from=2026-01-02&to=2026-02-03&page=3'))).toEqual(
      {
        tab: 'review',
        q: 'ada',
        from: '2026-01-02',
        to: '2026-02-03',
        page: 3,
      },
    );
    expect(readFilters(new URLSearchParams('tab=nope&from=yesterday&page=-2'))).toEqual(DEFAULT_FILTERS);
  });

  it('writes only what differs from the defaults, and reads it back the same', () => {
    expect(filtersToParams(DEFAULT_FILTERS).toString()).toBe('');
    const f = { tab: 'paid' as const, q: ' #12 ', from: '', to: '2026-05-01', page: 2 };
    const params = filtersToParams(f);
    expect(params.toString()).toBe('tab=paid&q=%2312&to=2026-05-01&page=2');
    expect(readFilters(params)).toEqual({ ...f, q: '#12' });
  });

  it('asks the API for the tab as a status, "needs review" as flagged, and the CSV without a page', () => {
    expect(listQuery({ ...DEFAULT_FILTERS, tab: 'queued', page: 2 })).toBe(
      'status=queued&page=2&pageSize=25',
    );
    expect(listQuery({ ...DEFAULT_FILTERS, tab: 'review' })).toBe('flagged=1&page=1&pageSize=25');
    expect(csvQuery({ ...DEFAULT_FILTERS, q: 'a,b', from: '2026-01-01', page: 4 })).toBe(
      'q=a%2Cb&from=2026-01-01',
    );
  });
});
