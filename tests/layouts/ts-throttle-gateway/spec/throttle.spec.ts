import { Throttler } from '../lib/http/guards/throttle';

describe('Throttler', () => {
  let now = 0;
  const make = (maxHits: number) => new Throttler({ windowMs: 1000, maxHits, now: () => now });

  beforeEach(() => {
    now = 10_000;
  });

  it('allows up to maxHits in a window', () => {
    const t = make(3);
    expect(t.hit('a').allowed).toBe(true);
    expect(t.hit('a').allowed).toBe(true);
    expect(t.hit('a').remaining).toBe(0);
    expect(t.hit('a').allowed).toBe(false);
  });

  it('counts clients separately', () => {
    const t = make(1);
    expect(t.hit('a').allowed).toBe(true);
    expect(t.hit('b').allowed).toBe(true);
  });

  it('lets hits slide out of the window', () => {
    const t = make(1);
    t.hit('a');
    now += 1001;
    expect(t.hit('a').allowed).toBe(true);
  });

  it('sweeps quiet clients', () => {
    const t = make(5);
    t.hit('a');
    now += 5000;
    expect(t.sweep()).toBe(1);
    expect(t.trackedClients).toBe(0);
  });
});
