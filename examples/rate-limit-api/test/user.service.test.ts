import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase } from '../src/db';
import { seed } from '../src/db/seed';
import { UserService } from '../src/services/user.service';
import { BadRequestError, ConflictError, NotFoundError } from '../src/utils/errors';

describe('UserService', () => {
  let users: UserService;

  beforeEach(() => {
    const database = createDatabase();
    seed(database);
    users = new UserService(database);
  });

  it('creates users with normalised emails', () => {
    const user = users.create({ email: '  Dana@Example.TEST ', name: 'Dana' });
    assert.equal(user.email, 'dana@example.test');
    assert.equal(user.status, 'active');
    assert.equal(user.marketingOptIn, false);
  });

  it('rejects duplicate emails', () => {
    assert.throws(() => users.create({ email: 'alice@example.test', name: 'Other Alice' }), ConflictError);
  });

  it('reports every validation problem at once', () => {
    try {
      users.create({ email: 'not-an-email', name: '' });
      assert.fail('expected a validation error');
    } catch (err) {
      assert.ok(err instanceof BadRequestError);
      assert.equal((err.details as string[]).length, 2);
    }
  });

  it('soft deletes users', () => {
    users.remove('usr_bob0000002');
    assert.throws(() => users.get('usr_bob0000002'), NotFoundError);
    assert.equal(users.list().some((user) => user.id === 'usr_bob0000002'), false);
    assert.equal(users.list(true).some((user) => user.id === 'usr_bob0000002'), true);
  });

  it('updates the name and timestamp', () => {
    const before = users.get('usr_alice00001');
    const after = users.update('usr_alice00001', { name: 'Alice M.' });
    assert.equal(after.name, 'Alice M.');
    assert.ok(after.updatedAt >= before.updatedAt);
  });
});
