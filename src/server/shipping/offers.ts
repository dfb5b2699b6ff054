import type { ShippingMethod, ShippingOffer, ShippingSettings, ShipTo } from '../../shared/shipping.ts';
import type { Db } from '../db/client.ts';
import { type Calendar, createCalendar } from './calendar.ts';
import type { ProductionSettings } from './production-settings.ts';
import { queueHours } from './queue-load.ts';
import { loadDeliverySettings } from './settings-repository.ts';
import { arrivalWindow, shipByFor } from './ship-by.ts';

// What a cart is offered: its country's methods at this subtotal's prices (free from a method's threshold),
// each with the ship-by date the print queue gives and the arrival window its transit time adds. The cart,
// the checkout (which stores them on the order and sends them to the hosted page) and the fulfilment's
// check all read offers made here.

/** A method's price for an items' subtotal: nothing from its free-shipping threshold. */
export function priceFor(method: ShippingMethod, subtotalCents: number): number {
  return method.freeFromCents !== null && subtotalCents >= method.freeFromCents ? 0 : method.priceCents;
}

export function offersFor(
  methods: ShippingMethod[],
  subtotalCents: number,
  shipBy: string,
  calendar: Calendar,
): ShippingOffer[] {
  return methods.map((m) => {
    const window = arrivalWindow(shipBy, m.transitDays, calendar);
    return {
      id: m.id,
      name: m.name,
      priceCents: priceFor(m, subtotalCents),
      listPriceCents: m.priceCents,
      freeFromCents: m.freeFromCents,
      transitDays: { ...m.transitDays },
      shipBy,
      arrivesFrom: window.from,
      arrivesBy: window.to,
    };
  });
}

export type DeliveryQuote = {
  shipTo: ShipTo;
  options: ShippingOffer[];
  shipBy: string;
  production: ProductionSettings;
  calendar: Calendar;
};

/**
 * The offers for a cart shipped to `shipTo` whose items take `ownHours` of printing, if it were paid `now`:
 * the queue ahead of it is every paid, queued and printing piece not yet printed.
 */
export async function quoteDelivery(
  db: Db,
  input: { shipTo: ShipTo; subtotalCents: number; ownHours: number; now: Date },
  loaded?: { shipping: ShippingSettings; production: ProductionSettings },
): Promise<DeliveryQuote> {
  const { shipping, production } = loaded ?? (await loadDeliverySettings(db));
  const calendar = createCalendar(production);
  const shipBy = shipByFor({
    now: input.now,
    queueHours: await queueHours(db),
    ownHours: input.ownHours,
    production,
    calendar,
  });
  return {
    shipTo: input.shipTo,
    options: offersFor(shipping[input.shipTo], input.subtotalCents, shipBy, calendar),
    shipBy,
    production,
    calendar,
  };
}
