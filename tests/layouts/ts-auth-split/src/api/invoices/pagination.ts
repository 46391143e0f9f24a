import { BadRequestError } from '../../utils/errors';

/**
 * Cursor pagination. The `pageToken` a client gets back is an opaque,
 * base64url-encoded cursor naming the last row of the page it has seen.
 */
export interface Cursor {
  createdAt: string;
  id: string;
}

export interface Page<T> {
  items: T[];
  nextPageToken: string | null;
}

export function encodePageToken(cursor: Cursor): string {
  return Buffer.from(JSON.stringify([cursor.createdAt, cursor.id])).toString('base64url');
}

export function decodePageToken(token: string): Cursor {
  try {
    const [createdAt, id] = JSON.parse(Buffer.from(token, 'base64url').toString('utf8'));
    if (typeof createdAt !== 'string' || typeof id !== 'string') throw new Error('shape');
    return { createdAt, id };
  } catch {
    throw new BadRequestError('malformed page token');
  }
}

/** Rows must be sorted by (createdAt, id); returns the page after `pageToken`. */
export function paginate<T extends Cursor>(rows: T[], pageSize: number, pageToken?: string): Page<T> {
  let start = 0;
  if (pageToken) {
    const after = decodePageToken(pageToken);
    start = rows.findIndex(
      (r) => r.createdAt > after.createdAt || (r.createdAt === after.createdAt && r.id > after.id),
    );
    if (start === -1) return { items: [], nextPageToken: null };
  }
  const items = rows.slice(start, start + pageSize);
  const last = items[items.length - 1];
  const more = start + pageSize < rows.length;
  return { items, nextPageToken: more && last ? encodePageToken(last) : null };
}
