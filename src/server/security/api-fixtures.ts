import { eq } from 'drizzle-orm';
import { insertOrder } from '../admin/orders/testing.ts';
import { createLoggedInUser, createUser } from '../auth/testing.ts';
import { cartItem, startCheckout, uploadBox } from '../checkout/testing.ts';
import { contactMessages, orderFlags, orderItems, orders } from '../db/schema.ts';
import { newModelId } from '../models/ids.ts';
import type { TestApp } from '../testing/test-app.ts';

// One shop with something behind every kind of id a route takes: an admin, customer A (a model, a pending
// order with an open simulator checkout, a paid order with an item and an open flag, a contact message)
// customer B, who owns nothing, and an account not verified yet. The API sweeps fill each route's ids from here.

export type Person = { id: number; cookie: string; username: string };

export type World = {
  admin: Person;
  a: Person;
  b: Person;
  ids: {
    model: string;
    pendingOrder: number;
    paidOrder: number;
    item: number;
    flag: number;
    message: number;
    simulatorSession: string;
    /** Two accounts whose email is not verified yet: one for the admin's verify, one for the resend. */
    toVerify: number;
    toResend: number;
  };
  /** The settings as they are, to save back unchanged (PUT /api/admin/settings/...). */
  settings: Record<string, unknown>;
};

async function person(t: TestApp, isAdmin = false): Promise<Person> {
  const { user, cookie } = await createLoggedInUser(t, { isAdmin });
  return { id: user.id, cookie, username: user.username };
}

export async function buildWorld(t: TestApp): Promise<World> {
  const admin = await person(t, true);
  const a = await person(t);
  const b = await person(t);
  const db = t.database.db;
  const model = await uploadBox(t, { id: a.id, cookie: a.cookie }, 10);
  const started = await startCheckout(t, { id: a.id, cookie: a.cookie }, [cartItem(model)]);
  if (started.statusCode !== 200) throw new Error(`checkout: ${started.statusCode} ${started.body}`);
  const simulatorSession = started.json().id as string;
  const [pending] = await db.select().from(orders).where(eq(orders.paymentSessionId, simulatorSession));
  const paid = await insertOrder(db, a.id, { status: 'queued' }, [{ modelId: model }]);
  const [item] = await db.select().from(orderItems).where(eq(orderItems.orderId, paid.id));
  const [flag] = await db
    .insert(orderFlags)
    .values({ orderId: paid.id, kind: 'address_unreadable', details: 'check it' })
    .returning();
  const [message] = await db
    .insert(contactMessages)
    .values({ name: 'A', email: 'a@example.com', message: 'Where is my order?', userId: a.id })
    .returning();
  const toVerify = await createUser(db, { verified: false });
  const toResend = await createUser(db, { verified: false });
  const settings: Record<string, unknown> = {};
  for (const section of ['pricing', 'shipping', 'production', 'shop']) {
    const url = `/api/admin/settings/${section}`;
    const res = await t.app.inject({ url, headers: { cookie: admin.cookie } });
    settings[url] = { values: res.json().values };
  }
  return {
    admin,
    a,
    b,
    settings,
    ids: {
      model,
      pendingOrder: pending!.id,
      paidOrder: paid.id,
      item: item!.id,
      flag: flag!.id,
      message: message!.id,
      simulatorSession,
      toVerify: toVerify.user.id,
      toResend: toResend.user.id,
    },
  };
}

/**
 * A's id for the parameter `name` of `path` (what `:id` means depends on the path). An unknown route
 * throws: a new route with an id must be placed here, so that no sweep forgets it.
 */
export function idOf(world: World, name: string, path: string): string | number {
  const { ids } = world;
  if (name === 'itemId') return ids.item;
  if (name === 'flagId') return ids.flag;
  if (name !== 'id') throw new Error(`api-fixtures: no value for :${name} in ${path}`);
  if (path.startsWith('/api/models/')) return ids.model;
  if (path === '/api/orders/:id/cancel') return ids.pendingOrder;
  if (path.startsWith('/api/orders/')) return ids.paidOrder;
  if (path.startsWith('/api/pay/simulator/')) return ids.simulatorSession;
  if (path.startsWith('/api/admin/orders/')) return ids.paidOrder;
  if (path === '/api/admin/customers/:id/verify') return ids.toVerify;
  if (path === '/api/admin/customers/:id/resend-verification') return ids.toResend;
  if (path.startsWith('/api/admin/customers/')) return world.a.id;
  if (path.startsWith('/api/admin/messages/')) return ids.message;
  throw new Error(`api-fixtures: what is :id of ${path}? Add it to idOf.`);
}

/** An id of the same shape that names nothing. */
export function madeUpId(name: string, path: string): string | number {
  if (name === 'id' && path.startsWith('/api/models/')) return newModelId();
  if (name === 'id' && path.startsWith('/api/pay/simulator/')) return `cs_sim_${'x'.repeat(32)}`;
  return 2_000_000_000;
}

/** A body each route would accept from its rightful caller (so only the check under test stops it). */
export function bodyFor(world: World, method: string, path: string): unknown {
  const bodies: Record<string, unknown> = {
    '/api/models/:id/scale': { factor: 25.4 },
    '/api/admin/orders/:id/status': { status: 'printing' },
    '/api/admin/orders/:id/notes': { text: 'Checked the file.', visibleToCustomer: true },
    '/api/admin/orders/:id/refund': { amountCents: 100, reason: 'goodwill' },
    '/api/admin/orders/:id/flags/:flagId/resolve': { note: 'Called the customer.' },
    '/api/admin/orders/:id/items/:itemId/reprint': { reason: 'warped corner' },
    '/api/admin/production/start': { orderIds: [world.ids.paidOrder] },
    '/api/admin/customers/:id/verify': { value: true },
    '/api/admin/customers/:id/admin': { value: true },
    '/api/admin/customers/:id/disable': { value: true },
    '/api/admin/messages/:id/handled': { value: true },
    '/api/login.php': { username: world.a.username, password: 'correct horse battery' },
    '/api/send_contact_email.php': { name: 'Eve', email: 'eve@example.com', message: 'Hello there' },
    '/api/quote': { modelId: world.ids.model, strength: 3 },
  };
  if (method === 'DELETE') return undefined;
  if (path === '/api/admin/settings/pricing/preview') {
    const pricing = world.settings['/api/admin/settings/pricing'] as { values: unknown };
    return { values: pricing.values, sample: 'cube-20' };
  }
  return bodies[path] ?? world.settings[path] ?? {};
}
