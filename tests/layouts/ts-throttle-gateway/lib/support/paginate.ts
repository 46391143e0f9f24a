import { badRequest } from './errors';

export interface PageParams {
  limit: number;
  offset: number;
}

export interface PageResult<T> {
  data: T[];
  limit: number;
  offset: number;
  total: number;
  hasMore: boolean;
}

/** Reads `?limit=&offset=` with defaults and an upper bound on the limit. */
export function parsePageParams(
  query: Record<string, unknown>,
  defaults: { defaultLimit: number; maxLimit: number },
): PageParams {
  const limit = query.limit === undefined ? defaults.defaultLimit : Number(query.limit);
  const offset = query.offset === undefined ? 0 : Number(query.offset);
  if (!Number.isInteger(limit) || limit < 1) throw badRequest('limit must be a positive integer');
  if (!Number.isInteger(offset) || offset < 0) throw badRequest('offset must be zero or more');
  if (limit > defaults.maxLimit) throw badRequest(`limit may not exceed ${defaults.maxLimit}`);
  return { limit, offset };
}

export function pageOf<T>(rows: readonly T[], params: PageParams): PageResult<T> {
  const data = rows.slice(params.offset, params.offset + params.limit);
  return {
    data,
    limit: params.limit,
    offset: params.offset,
    total: rows.length,
    hasMore: params.offset + data.length < rows.length,
  };
}

/** Link header values for the previous and next page, RFC 8288 style. */
export function pageLinks(baseUrl: string, params: PageParams, total: number): string {
  const links: string[] = [];
  if (params.offset > 0) {
    const prev = Math.max(0, params.offset - params.limit);
    links.push(`<${baseUrl}?limit=${params.limit}&offset=${prev}>; rel="prev"`);
  }
  if (params.offset + params.limit < total) {
    links.push(`<${baseUrl}?limit=${params.limit}&offset=${params.offset + params.limit}>; rel="next"`);
  }
  return links.join(', ');
}
