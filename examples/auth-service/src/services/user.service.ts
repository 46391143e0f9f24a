import { query, queryOne } from '../db/pool';
import {
  CreateUserInput,
  mapUserRow,
  normalizeEmail,
  UpdateUserInput,
  User,
  UserRow,
} from '../models/user';
import { ConflictError, NotFoundError, ValidationError } from '../utils/errors';
import { checkPasswordPolicy, hashPassword } from '../utils/password';

const USER_COLUMNS = `id, email, display_name, password_hash, role, email_verified,
  email_verification_code, last_login, created_at, updated_at`;

export class UserService {
  async findById(id: string): Promise<User | undefined> {
    const row = await queryOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE id = $1`, [id]);
    return row ? mapUserRow(row) : undefined;
  }

  async getById(id: string): Promise<User> {
    const user = await this.findById(id);
    if (!user) throw new NotFoundError('user', id);
    return user;
  }

  async findByEmail(email: string): Promise<User | undefined> {
    const row = await queryOne<UserRow>(`SELECT ${USER_COLUMNS} FROM users WHERE email = $1`, [
      normalizeEmail(email),
    ]);
    return row ? mapUserRow(row) : undefined;
  }

  async list(offset = 0, count = 50): Promise<User[]> {
    const rows = await query<UserRow>(
      `SELECT ${USER_COLUMNS} FROM users ORDER BY created_at DESC OFFSET $1 LIMIT $2`,
      [offset, count],
    );
    return rows.map(mapUserRow);
  }

  async create(input: CreateUserInput): Promise<User> {
    const policy = checkPasswordPolicy(input.password);
    if (!policy.ok) {
      throw new ValidationError('password does not meet the policy', policy.problems);
    }
    const email = normalizeEmail(input.email);
    if (await this.findByEmail(email)) {
      throw new ConflictError(`a user with email ${email} already exists`);
    }
    const passwordHash = await hashPassword(input.password);
    const row = await queryOne<UserRow>(
      `INSERT INTO users (email, display_name, password_hash, role)
       VALUES ($1, $2, $3, $4)
       RETURNING ${USER_COLUMNS}`,
      [email, input.displayName.trim(), passwordHash, input.role ?? 'customer'],
    );
    return mapUserRow(row as UserRow);
  }

  async update(id: string, input: UpdateUserInput): Promise<User> {
    const current = await this.getById(id);
    const row = await queryOne<UserRow>(
      `UPDATE users SET display_name = $2, role = $3, updated_at = now()
       WHERE id = $1 RETURNING ${USER_COLUMNS}`,
      [id, input.displayName?.trim() ?? current.displayName, input.role ?? current.role],
    );
    return mapUserRow(row as UserRow);
  }

  async recordLogin(id: string, at: Date = new Date()): Promise<void> {
    await query('UPDATE users SET last_login = $2 WHERE id = $1', [id, at]);
  }

  async markEmailVerified(id: string): Promise<void> {
    await query(
      'UPDATE users SET email_verified = TRUE, email_verification_code = NULL, updated_at = now() WHERE id = $1',
      [id],
    );
  }

  async remove(id: string): Promise<void> {
    const rows = await query<{ id: string }>('DELETE FROM users WHERE id = $1 RETURNING id', [id]);
    if (rows.length === 0) throw new NotFoundError('user', id);
  }
}

export const userService = new UserService();
