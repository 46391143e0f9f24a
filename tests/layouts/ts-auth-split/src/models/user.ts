import { scrypt, timingSafeEqual } from 'crypto';
import { promisify } from 'util';

const scryptAsync = promisify(scrypt) as (pw: string, salt: Buffer, len: number) => Promise<Buffer>;

export interface User {
  id: string;
  email: string;
  displayName: string;
  /** "salt:hash", both hex. */
  passwordHash: string;
  scopes: string[];
  disabled: boolean;
}

const users = new Map<string, User>();

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(email: string): Promise<User | undefined> {
  const wanted = normalizeEmail(email);
  for (const user of users.values()) {
    if (user.email === wanted && !user.disabled) return user;
  }
  return undefined;
}

export async function checkPassword(user: User, password: string): Promise<boolean> {
  const [saltHex, hashHex] = user.passwordHash.split(':');
  if (!saltHex || !hashHex) return false;
  const expected = Buffer.from(hashHex, 'hex');
  const actual = await scryptAsync(password, Buffer.from(saltHex, 'hex'), expected.length);
  return timingSafeEqual(actual, expected);
}

export function addUser(user: User): void {
  users.set(user.id, { ...user, email: normalizeEmail(user.email) });
}
