import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { SHIPPING_COUNTRY_NAMES } from '../../../shared/address.ts';
import { CARD_MSG, type simulatorPayRequest } from '../../../shared/checkout.ts';
import type { ShipTo } from '../../../shared/shipping.ts';
import type { Db } from '../../db/client.ts';
import { simulatorSessions } from '../../db/schema.ts';
import { isSimulatorSessionId, statusAt } from '../providers/simulator.ts';

// Paying a simulator session, as a card network would answer Stripe's test cards: 4242 4242 4242 4242
// pays, 4000 0000 0000 0002 is declined (and the session stays open for another try), and so on.

export type PayRequest = z.output<typeof simulatorPayRequest>;

/** Why a payment did not go through: the status, the message shown, and the field it is about. */
export class PayRefusal extends Error {
  constructor(
    readonly statusCode: 400 | 402 | 404 | 409,
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

export const PAY_MSG = {
  notFound: 'This checkout does not exist.',
  paid: 'This checkout has already been paid.',
  expired: 'This checkout has expired. Go back to the shop and check out again.',
  luhn: 'Your card number is invalid.',
  expiredCard: 'Your card has expired.',
  declined: 'Your card was declined. Try another card.',
  insufficient: 'Your card has insufficient funds. Try another card.',
  cvc: "Your card's security code is incorrect.",
  unknownTestCard: 'In test mode, use a test card such as 4242 4242 4242 4242.',
  shippingOption: 'Choose one of the shipping methods offered.',
  country: (name: string) =>
    `This checkout ships to ${name} only. Go back to the cart to change where it ships.`,
} as const;

/** Stripe's test numbers this simulator knows: the ones that pay, and the ones refused with a reason. */
const TEST_CARDS: Record<string, { pays: true } | { pays: false; message: string; field: string }> = {
  '4242424242424242': { pays: true },
  '4000056655665556': { pays: true },
  '5555555555554444': { pays: true },
  '378282246310005': { pays: true },
  '4000000000000002': { pays: false, message: PAY_MSG.declined, field: 'card.number' },
  '4000000000009995': { pays: false, message: PAY_MSG.insufficient, field: 'card.number' },
  '4000000000000069': { pays: false, message: PAY_MSG.expiredCard, field: 'card.expiry' },
  '4000000000000127': { pays: false, message: PAY_MSG.cvc, field: 'card.cvc' },
};

export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let d = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** 'MM / YY' is valid through the last day of that month. */
export function expiryValid(expiry: string, now: Date): boolean {
  const [mm, yy] = expiry.split('/').map((p) => Number(p.trim()));
  const endOfMonth = Date.UTC(2000 + (yy ?? 0), mm ?? 0, 1); // the first instant of the next month
  return endOfMonth > now.getTime();
}

/**
 * Pays the session with the card, or throws a PayRefusal. The row is locked, so a double click pays once.
 * A paid session is then fulfilled by the caller through the same code as Stripe's events.
 */
export async function paySimulatorSession(db: Db, id: string, input: PayRequest, now: Date): Promise<void> {
  if (!isSimulatorSessionId(id)) throw new PayRefusal(404, PAY_MSG.notFound);
  const { card, shipping } = input;
  if (!luhnValid(card.number)) throw new PayRefusal(400, PAY_MSG.luhn, 'card.number');
  if (!expiryValid(card.expiry, now)) throw new PayRefusal(400, CARD_MSG.expiry, 'card.expiry');
  await db.transaction(async (tx) => {
    const [row] = await tx.select().from(simulatorSessions).where(eq(simulatorSessions.id, id)).for('update');
    if (!row) throw new PayRefusal(404, PAY_MSG.notFound);
    const status = statusAt(row, now);
    if (status === 'complete') throw new PayRefusal(409, PAY_MSG.paid);
    if (status === 'expired') throw new PayRefusal(409, PAY_MSG.expired);
    // As Stripe's page, the session offers only its country's addresses and its shipping methods.
    if (row.shipTo && shipping.country !== row.shipTo) {
      throw new PayRefusal(
        400,
        PAY_MSG.country(SHIPPING_COUNTRY_NAMES[row.shipTo as ShipTo] ?? row.shipTo),
        'shipping.country',
      );
    }
    const option = row.shippingOptions.find((o) => o.id === input.shippingOption);
    if (row.shippingOptions.length > 0 && !option) {
      throw new PayRefusal(400, PAY_MSG.shippingOption, 'shippingOption');
    }
    const outcome = TEST_CARDS[card.number];
    if (!outcome) throw new PayRefusal(402, PAY_MSG.unknownTestCard, 'card.number');
    if (!outcome.pays) {
      await tx
        .update(simulatorSessions)
        .set({ declines: row.declines + 1 })
        .where(eq(simulatorSessions.id, id));
      // Committed on purpose: the decline is recorded, then refused.
      return;
    }
    await tx
      .update(simulatorSessions)
      .set({
        status: 'complete',
        paymentStatus: 'paid',
        shipping,
        ...(option
          ? {
              shippingOptionId: option.id,
              amountShippingCents: option.amountCents,
              amountTotalCents: (row.amountSubtotalCents ?? 0) + option.amountCents,
            }
          : {}),
        paymentIntentId: `pi_sim_${randomBytes(12).toString('base64url')}`,
        completedAt: now,
      })
      .where(eq(simulatorSessions.id, id));
  });
  // A declined card: the transaction above committed the count; refuse now.
  const outcome = TEST_CARDS[card.number];
  if (outcome && !outcome.pays) throw new PayRefusal(402, outcome.message, outcome.field);
}
