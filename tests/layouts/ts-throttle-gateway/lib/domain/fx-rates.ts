import { badRequest } from '../support/errors';

/** Currency exchange rates against EUR, as published once a day. */
export interface RateTable {
  base: 'EUR';
  date: string;
  rates: Record<string, number>;
}

export class FxRates {
  private table: RateTable = { base: 'EUR', date: '1970-01-01', rates: { EUR: 1 } };

  constructor(private readonly sourceUrl: string) {}

  async refresh(): Promise<void> {
    const res = await fetch(this.sourceUrl);
    if (!res.ok) throw new Error(`fx source answered ${res.status}`);
    const body = (await res.json()) as RateTable;
    this.table = { ...body, rates: { ...body.rates, EUR: 1 } };
  }

  /** Use a fixed table (tests, offline runs). */
  setTable(table: RateTable): void {
    this.table = table;
  }

  rate(currency: string): number {
    const rate = this.table.rates[currency.toUpperCase()];
    if (rate === undefined) throw badRequest(`no exchange rate for ${currency}`);
    return rate;
  }

  /** Converts euro cents to the currency's minor unit, rounding half to even. */
  convert(eurCents: number, currency: string): number {
    const exact = eurCents * this.rate(currency);
    const floor = Math.floor(exact);
    const diff = exact - floor;
    if (diff > 0.5) return floor + 1;
    if (diff < 0.5) return floor;
    return floor % 2 === 0 ? floor : floor + 1;
  }

  get asOf(): string {
    return this.table.date;
  }
}
