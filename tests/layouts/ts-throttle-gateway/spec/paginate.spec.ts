import { pageLinks, pageOf, parsePageParams } from '../lib/support/paginate';

const defaults = { defaultLimit: 2, maxLimit: 10 };

describe('paginate', () => {
  it('uses the default limit', () => {
    expect(parsePageParams({}, defaults)).toEqual({ limit: 2, offset: 0 });
  });

  it('refuses a limit over the maximum', () => {
    expect(() => parsePageParams({ limit: '11' }, defaults)).toThrow(/may not exceed/);
  });

  it('slices a page and reports whether there is more', () => {
    const page = pageOf([1, 2, 3, 4, 5], { limit: 2, offset: 2 });
    expect(page.data).toEqual([3, 4]);
    expect(page.hasMore).toBe(true);
  });

  it('builds prev and next links', () => {
    expect(pageLinks('/v1/products', { limit: 2, offset: 2 }, 5)).toBe(
      '</v1/products?limit=2&offset=0>; rel="prev", </v1/products?limit=2&offset=4>; rel="next"',
    );
  });
});
