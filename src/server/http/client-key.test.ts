import { describe, expect, it } from 'vitest';
import { clientBucket } from './client-key.ts';

describe('clientBucket', () => {
  it('keeps an IPv4 address as it is', () => {
    expect(clientBucket('203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('127.0.0.1')).toBe('127.0.0.1');
  });

  it('counts an IPv4-mapped IPv6 address as its IPv4 client', () => {
    expect(clientBucket('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientBucket('::FFFF:cb00:7107')).toBe('203.0.113.7');
  });

  it('puts every address of one IPv6 /64 in one bucket', () => {
    const a = clientBucket('2001:db8:85a3:1::1');
    expect(a).toBe('2001:db8:85a3:1::/64');
    expect(clientBucket('2001:0db8:85a3:0001:ffff:ffff:ffff:fffe')).toBe(a);
    expect(clientBucket('2001:DB8:85A3:1:dead:beef:0:1')).toBe(a);
    expect(clientBucket('2001:db8:85a3:1::1%eth0')).toBe(a);
  });

  it('keeps different /64 networks apart', () => {
    expect(clientBucket('2001:db8:85a3:2::1')).not.toBe(clientBucket('2001:db8:85a3:1::1'));
    expect(clientBucket('::1')).toBe('0:0:0:0::/64');
    expect(clientBucket('fe80::1')).toBe('fe80:0:0:0::/64');
  });

  it('drops a port and brackets that a proxy may forward with the address', () => {
    expect(clientBucket('203.0.113.7:51234')).toBe('203.0.113.7');
    expect(clientBucket('[2001:db8:85a3:1::1]:443')).toBe('2001:db8:85a3:1::/64');
    expect(clientBucket('[2001:db8:85a3:1::1]')).toBe('2001:db8:85a3:1::/64');
    expect(clientBucket(' 203.0.113.7 ')).toBe('203.0.113.7');
  });

  it('leaves anything that is not an IP address alone (a unix socket, a test client)', () => {
    expect(clientBucket('')).toBe('');
    expect(clientBucket('localhost')).toBe('localhost');
  });
});
