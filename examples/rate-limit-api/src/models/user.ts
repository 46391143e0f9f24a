export type UserStatus = 'active' | 'suspended' | 'deleted';

export interface User {
  id: string;
  email: string;
  name: string;
  status: UserStatus;
  marketingOptIn: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface NewUser {
  email: string;
  name: string;
  marketingOptIn?: boolean;
}

export type UserPatch = Partial<Pick<User, 'name' | 'status' | 'marketingOptIn'>>;

const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[a-z]{2,}$/i;

export function isValidEmail(email: string): boolean {
  return EMAIL_PATTERN.test(email);
}

export function validateNewUser(input: Partial<NewUser>): string[] {
  const problems: string[] = [];
  if (typeof input.email !== 'string' || !isValidEmail(input.email.trim())) {
    problems.push('email must be a valid email address');
  }
  if (typeof input.name !== 'string' || input.name.trim().length === 0) {
    problems.push('name is required');
  } else if (input.name.length > 120) {
    problems.push('name must be at most 120 characters');
  }
  if (input.marketingOptIn !== undefined && typeof input.marketingOptIn !== 'boolean') {
    problems.push('marketingOptIn must be a boolean');
  }
  return problems;
}

export function displayName(user: Pick<User, 'name' | 'email'>): string {
  return user.name.trim() || user.email.split('@')[0];
}
