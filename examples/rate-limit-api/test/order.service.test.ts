import { beforeEach, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { createDatabase, Database } from '../src/db';
import { seed } from '../src/db/seed';
import { OrderService } from '../src/services/order.service';
import { InventoryService } from '../src/services/inventory.service';
import { BadRequestError, ConflictError } from '../src/utils/errors';

const ALICE = 'usr_alice00001';
const CAROL = 'usr_carol00003';
const KETTLE = 'prd_kettle0001';
const ROBOT = 'prd_robot00004';

describe('OrderService', () => {
  let database: Database;
  let orders: OrderService;
  let inventory: InventoryService;

  beforeEach(() => {
    database = createDatabase();
    seed(database);
    orders = new OrderService(database);
    inventory = new InventoryService(database);
  });

  it('creates a draft order priced from the catalogue', () => {
    const order = orders.create(ALICE, [{ productId: KETTLE, quantity: 2 }]);
    assert.equal(order.status, 'draft');
    assert.equal(order.totalCents, 2 * 3499);
    assert.match(order.id, /^ord_/);
  });

  it('refuses orders from suspended users', () => {
    assert.throws(() => orders.create(CAROL, [{ productId: KETTLE, quantity: 1 }]), BadRequestError);
  });

  it('refuses unpublished products', () => {
    assert.throws(() => orders.create(ALICE, [{ productId: ROBOT, quantity: 1 }]), BadRequestError);
  });

  it('reserves stock when an order is placed and releases it on cancel', () => {
    const order = orders.create(ALICE, [{ productId: KETTLE, quantity: 5 }]);
    orders.place(order.id);
    assert.equal(inventory.availability(KETTLE).available, 20);
    orders.cancel(order.id);
    assert.equal(inventory.availability(KETTLE).available, 25);
  });

  it('moves stock out of the warehouse when shipped', () => {
    const order = orders.create(ALICE, [{ productId: KETTLE, quantity: 3 }]);
    orders.place(order.id);
    orders.markPaid(order.id);
    orders.ship(order.id);
    assert.deepEqual(inventory.availability(KETTLE), { productId: KETTLE, onHand: 22, reserved: 0, available: 22 });
  });

  it('rejects invalid status transitions', () => {
    const order = orders.create(ALICE, [{ productId: KETTLE, quantity: 1 }]);
    assert.throws(() => orders.ship(order.id), ConflictError);
  });

  it('lists the newest orders first', () => {
    const first = orders.create(ALICE, [{ productId: KETTLE, quantity: 1 }]);
    database.orders.update(first.id, { createdAt: '2020-01-01T00:00:00.000Z' });
    const second = orders.create(ALICE, [{ productId: KETTLE, quantity: 1 }]);
    assert.deepEqual(
      orders.listForUser(ALICE).map((order) => order.id),
      [second.id, first.id],
    );
  });
});
