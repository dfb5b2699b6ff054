import { describe, expect, it } from 'vitest';
import { listQuery, readView, replyHref, viewToParams } from './messages-query.ts';

describe('the Messages page query', () => {
  it('reads the filter and page from the URL; anything else is all messages, page 1', () => {
    expect(readView(new URLSearchParams(''))).toEqual({ show: 'all', page: 1 });
    expect(readView(new URLSearchParams('show=unhandled&page=3'))).toEqual({ show: 'unhandled', page: 3 });
    expect(readView(new URLSearchParams('show=handled'))).toEqual({ show: 'handled', page: 1 });
    expect(readView(new URLSearchParams('show=spam&page=0'))).toEqual({ show: 'all', page: 1 });
    expect(readView(new URLSearchParams('page=1.5'))).toEqual({ show: 'all', page: 1 });
  });

  it('writes the page URL without defaults, and the API query with the handled filter', () => {
    expect(viewToParams({ show: 'all', page: 1 }).toString()).toBe('');
    expect(viewToParams({ show: 'handled', page: 2 }).toString()).toBe('show=handled&page=2');
    expect(listQuery({ show: 'all', page: 1 })).toBe('page=1&pageSize=20');
    expect(listQuery({ show: 'unhandled', page: 2 })).toBe('handled=0&page=2&pageSize=20');
    expect(listQuery({ show: 'handled', page: 1 })).toBe('handled=1&page=1&pageSize=20');
  });
});

describe('the reply link', () => {
  const message = {
    name: 'Jane Doe',
    email: 'jane+shop@example.com',
    message: 'Can you print PETG?\nThanks!',
  };

  it('mails the sender with the subject filled in and their message quoted', () => {
    const href = replyHref(message, 'Badger Print Co.');
    const url = new URL(href);
    expect(url.protocol).toBe('mailto:');
    expect(decodeURIComponent(url.pathname)).toBe('jane+shop@example.com');
    expect(href).toContain('?subject=Re%3A%20your%20message%20to%20Badger%20Print%20Co.&body=');
    expect(url.searchParams.get('subject')).toBe('Re: your message to Badger Print Co.');
    expect(url.searchParams.get('body')).toBe(
      'Hello Jane Doe,\n\n\n\nJane Doe wrote:\n> Can you print PETG?\n> Thanks!\n',
    );
  });

  it('cannot be bent by what the sender typed, and quotes only the start of a long message', () => {
    const href = replyHref(
      {
        name: 'x&cc=victim@example.com',
        email: 'a@example.com?bcc=b@example.com',
        message: 'm'.repeat(3000),
      },
      'Shop & Co',
    );
    const url = new URL(href);
    expect([...url.searchParams.keys()]).toEqual(['subject', 'body']);
    expect(url.searchParams.get('subject')).toBe('Re: your message to Shop & Co');
    expect(url.searchParams.get('body')).toContain(`> ${'m'.repeat(1000)}…`);
    expect(url.searchParams.get('body')).not.toContain('m'.repeat(1001));
  });
});
