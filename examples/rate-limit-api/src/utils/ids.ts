import { randomBytes } from 'crypto';

const ALPHABET = '0123456789abcdefghijkmnopqrstuvwxyz';

/**
 * Generates short, prefixed, URL-safe identifiers such as `usr_k3f9x2m1qa`.
 * The prefix makes ids self-describing in logs and support tickets.
 */
export function generateId(prefix: string, length = 10): string {
  const bytes = randomBytes(length);
  let id = '';
  for (let i = 0; i < length; i++) {
    id += ALPHABET[bytes[i] % ALPHABET.length];
  }
  return `${prefix}_${id}`;
}

export function hasPrefix(id: string, prefix: string): boolean {
  return id.startsWith(`${prefix}_`) && id.length > prefix.length + 1;
}

export const ID_PREFIX = {
  user: 'usr',
  product: 'prd',
  order: 'ord',
  request: 'req',
} as const;
