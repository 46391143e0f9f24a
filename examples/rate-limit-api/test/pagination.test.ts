import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { linkHeader, paginate, parsePageRequest } from '../src/utils/pagination';
import { BadRequestError } from '../src/utils/errors';

const defaults = { defaultPageSize: 10, maxPageSize: 50 };

describe('parsePageRequest', () => {
  it('falls back to page 1 and the default page size', () => {
    assert.deepEqual(parsePageRequest({}, defaults), { page: 1, limit: 10, offset: 0 });
  });

  it('computes the offset from page and limit', () => {
    assert.deepEqual(parsePageRequest({ page: '3', limit: '25' }, defaults), { page: 3, limit: 25, offset: 50 });
  });

  it('caps the limit at the maximum page size', () => {
    assert.equal(parsePageRequest({ limit: '500' }, defaults).limit, 50);
  });

  it('rejects non-positive or non-numeric values', () => {
    assert.throws(() => parsePageRequest({ page: '0' }, defaults), BadRequestError);
    assert.throws(() => parsePageRequest({ limit: 'ten' }, defaults), BadRequestError);
  });
});

describe('paginate', () => {
  const items = Array.from({ length: 23 }, (_, i) => i + 1);

  it('returns the requested slice with metadata', () => {
    const page = paginate(items, { page: 2, limit: 10, offset: 10 });
    assert.deepEqual(page.data, [11, 12, 13, 14, 15, 16, 17, 18, 19, 20]);
    assert.deepEqual(page.meta, {
      page: 2,
      limit: 10,
      total: 23,
      totalPages: 3,
      hasNext: true,
      hasPrevious: true,
    });
  });

  it('handles an empty collection', () => {
    const page = paginate([], { page: 1, limit: 10, offset: 0 });
    assert.equal(page.meta.totalPages, 0);
    assert.equal(page.meta.hasNext, false);
    assert.equal(page.meta.hasPrevious, false);
  });
});

describe('linkHeader', () => {
  it('links to neighbouring pages', () => {
    const { meta } = paginate(Array.from({ length: 30 }), { page: 2, limit: 10, offset: 10 });
    assert.equal(
      linkHeader('/api/users', meta),
      '</api/users?page=1&limit=10>; rel="prev", </api/users?page=3&limit=10>; rel="next"',
    );
  });

  it('returns undefined for a single page', () => {
    const { meta } = paginate([1, 2], { page: 1, limit: 10, offset: 0 });
    assert.equal(linkHeader('/api/users', meta), undefined);
  });
});
