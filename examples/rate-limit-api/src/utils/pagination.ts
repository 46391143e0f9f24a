import { config } from '../config';
import { BadRequestError } from './errors';

export interface PageRequest {
  page: number;
  limit: number;
  offset: number;
}

export interface PageMeta {
  page: number;
  limit: number;
  total: number;
  totalPages: number;
  hasNext: boolean;
  hasPrevious: boolean;
}

export interface Page<T> {
  data: T[];
  meta: PageMeta;
}

function parsePositiveInt(raw: unknown, name: string): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  const value = Number(Array.isArray(raw) ? raw[0] : raw);
  if (!Number.isInteger(value) || value < 1) {
    throw new BadRequestError(`"${name}" must be a positive integer`);
  }
  return value;
}

/**
 * Reads `page` and `limit` from a query string. The page size is capped at
 * the configured maximum so a client cannot ask for the whole table at once.
 */
export function parsePageRequest(
  query: Record<string, unknown>,
  defaults = config.pagination,
): PageRequest {
  const page = parsePositiveInt(query.page, 'page') ?? 1;
  const requested = parsePositiveInt(query.limit, 'limit') ?? defaults.defaultPageSize;
  const limit = Math.min(requested, defaults.maxPageSize);
  return { page, limit, offset: (page - 1) * limit };
}

export function paginate<T>(items: T[], request: PageRequest): Page<T> {
  const total = items.length;
  const totalPages = total === 0 ? 0 : Math.ceil(total / request.limit);
  return {
    data: items.slice(request.offset, request.offset + request.limit),
    meta: {
      page: request.page,
      limit: request.limit,
      total,
      totalPages,
      hasNext: request.page < totalPages,
      hasPrevious: request.page > 1 && total > 0,
    },
  };
}

/** Builds RFC 8288 Link header values for the next and previous pages. */
export function linkHeader(baseUrl: string, meta: PageMeta): string | undefined {
  const links: string[] = [];
  const url = (page: number) => `${baseUrl}?page=${page}&limit=${meta.limit}`;
  if (meta.hasPrevious) links.push(`<${url(meta.page - 1)}>; rel="prev"`);
  if (meta.hasNext) links.push(`<${url(meta.page + 1)}>; rel="next"`);
  return links.length > 0 ? links.join(', ') : undefined;
}
