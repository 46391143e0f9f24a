import { FxRates } from '../lib/domain/fx-rates';

describe('FxRates', () => {
  const fx = new FxRates('http://unused');
  fx.setTable({ base: 'EUR', date: '2024-05-02', rates: { EUR: 1, USD: 1.07, JPY: 166.5 } });

  it('converts euro cents', () => {
    expect(fx.convert(1000, 'USD')).toBe(1070);
  });

  it('rounds half to even', () => {
    fx.setTable({ base: 'EUR', date: '2024-05-02', rates: { EUR: 1, XTS: 0.5 } });
    expect(fx.convert(5, 'XTS')).toBe(2);
    expect(fx.convert(7, 'XTS')).toBe(4);
  });

  it('refuses an unknown currency', () => {
    expect(() => fx.rate('ZZZ')).toThrow(/no exchange rate/);
  });
});
