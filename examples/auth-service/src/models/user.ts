export type UserRole = 'customer' | 'support' | 'admin';

export const USER_ROLES: readonly UserRole[] = ['customer', 'support', 'admin'];

export interface User {
  id: string;
  email: string;
  displayName: string;
  passwordHash: string;
  role: UserRole;
  emailVerified: boolean;
  /** One-time code mailed to confirm the address (separate from login tokens); cleared once verified. */
  emailVerificationCode: string | null;
  lastLogin: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

/** Shape of a row in the `users` table. */
export interface UserRow {
  id: string;
  email: string;
  display_name: string;
  password_hash: string;
  role: string;
  email_verified: boolean;
  email_verification_code: string | null;
  last_login: Date | null;
  created_at: Date;
  updated_at: Date;
}

export type PublicUser = Omit<User, 'passwordHash' | 'emailVerificationCode'>;

export interface CreateUserInput {
  email: string;
  displayName: string;
  password: string;
  role?: UserRole;
}

export interface UpdateUserInput {
  displayName?: string;
  role?: UserRole;
}

export function isUserRole(value: unknown): value is UserRole {
  return typeof value === 'string' && (USER_ROLES as readonly string[]).includes(value);
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function mapUserRow(row: UserRow): User {
  return {
    id: row.id,
    email: row.email,
    displayName: row.display_name,
    passwordHash: row.password_hash,
    role: isUserRole(row.role) ? row.role : 'customer',
    emailVerified: row.email_verified,
    emailVerificationCode: row.email_verification_code,
    lastLogin: row.last_login,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function toPublicUser(user: User): PublicUser {
  const { passwordHash: _hash, emailVerificationCode: _verification, ...rest } = user;
  return rest;
}

export function isStaff(user: Pick<User, 'role'>): boolean {
  return user.role === 'admin' || user.role === 'support';
}
