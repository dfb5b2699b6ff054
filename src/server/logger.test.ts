import { describe, expect, it } from 'vitest';
import { LogThrottle } from './logger.ts';

describe('LogThrottle', () => {
  it('reports the first fault, then one line a minute with the faults held back meanwhile', () => {
    let now = 0;
    const throttle = new LogThrottle(() => now);
    expect(throttle.reported).toBe(false);
    expect(throttle.take()).toBe(1);
    expect(throttle.reported).toBe(true);
    now = 30_000;
    expect(throttle.take()).toBe(0);
    expect(throttle.take()).toBe(0);
    now = 60_000;
    expect(throttle.take()).toBe(3);
    now = 60_001;
    expect(throttle.take()).toBe(0);
  });

  it('starts again after a reset (the fault went away), so a new outage is told at once', () => {
    let now = 0;
    const throttle = new LogThrottle(() => now);
    throttle.take();
    throttle.take();
    throttle.reset();
    expect(throttle.reported).toBe(false);
    now = 10;
    expect(throttle.take()).toBe(1);
  });
});
