import { Database, db as defaultDb } from '../db';
import { NewUser, User, UserPatch, validateNewUser } from '../models/user';
import { BadRequestError, ConflictError, NotFoundError } from '../utils/errors';
import { generateId, ID_PREFIX } from '../utils/ids';
import { logger } from '../utils/logger';

export class UserService {
  constructor(private readonly db: Database = defaultDb) {}

  list(includeDeleted = false): User[] {
    return this.db.users
      .find((user) => includeDeleted || user.status !== 'deleted')
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  get(id: string): User {
    const user = this.db.users.findById(id);
    if (!user || user.status === 'deleted') throw new NotFoundError('User', id);
    return user;
  }

  findByEmail(email: string): User | undefined {
    const normalized = email.trim().toLowerCase();
    return this.db.users.findOne((user) => user.email === normalized && user.status !== 'deleted');
  }

  create(input: NewUser): User {
    const problems = validateNewUser(input);
    if (problems.length > 0) throw new BadRequestError('Invalid user', problems);
    if (this.findByEmail(input.email)) {
      throw new ConflictError(`A user with email ${input.email} already exists`);
    }
    const timestamp = new Date().toISOString();
    const user = this.db.users.insert({
      id: generateId(ID_PREFIX.user),
      email: input.email.trim().toLowerCase(),
      name: input.name.trim(),
      status: 'active',
      marketingOptIn: input.marketingOptIn ?? false,
      createdAt: timestamp,
      updatedAt: timestamp,
    });
    logger.info('user created', { userId: user.id });
    return user;
  }

  update(id: string, patch: UserPatch): User {
    this.get(id);
    if (patch.name !== undefined && patch.name.trim().length === 0) {
      throw new BadRequestError('name must not be empty');
    }
    const updated = this.db.users.update(id, { ...patch, updatedAt: new Date().toISOString() });
    if (!updated) throw new NotFoundError('User', id);
    return updated;
  }

  /** Soft delete: keeps the row so historical orders still resolve their owner. */
  remove(id: string): void {
    this.get(id);
    this.db.users.update(id, { status: 'deleted', updatedAt: new Date().toISOString() });
    logger.info('user deleted', { userId: id });
  }

  assertActive(id: string): User {
    const user = this.get(id);
    if (user.status !== 'active') {
      throw new BadRequestError(`User ${id} is ${user.status}`);
    }
    return user;
  }
}

export const userService = new UserService();
