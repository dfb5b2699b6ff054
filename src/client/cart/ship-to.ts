import { SHIPPING_COUNTRIES } from '../../shared/catalog.ts';
import type { ShipTo } from '../../shared/shipping.ts';

// The cart's 'Ship to': the customer's own choice, kept in local storage (key `printShipTo`) once they made
// one. Without it the server's quote answers the account's last order's country, else the US.

export const SHIP_TO_KEY = 'printShipTo';

export const isShipTo = (v: unknown): v is ShipTo => SHIPPING_COUNTRIES.some((c) => c === v);

/** The customer's choice in this browser, or null when they have not made one. */
export function readShipTo(): ShipTo | null {
  try {
    const v = globalThis.localStorage?.getItem(SHIP_TO_KEY);
    return isShipTo(v) ? v : null;
  } catch {
    return null;
  }
}

export function saveShipTo(shipTo: ShipTo): void {
  try {
    globalThis.localStorage?.setItem(SHIP_TO_KEY, shipTo);
  } catch (err) {
    console.warn('Could not remember the ship-to country:', err);
  }
}
