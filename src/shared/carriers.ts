// The carriers a parcel leaves with (docs/domain.md), the tracking number rule, and each carrier's public
// tracking page: My Orders, the shipping mail and the admin link the number there.

export const CARRIERS = [
  { code: 'usps', name: 'USPS', url: 'https://tools.usps.com/go/TrackConfirmAction?tLabels=' },
  { code: 'ups', name: 'UPS', url: 'https://www.ups.com/track?tracknum=' },
  { code: 'fedex', name: 'FedEx', url: 'https://www.fedex.com/fedextrack/?trknbr=' },
  { code: 'dhl', name: 'DHL', url: 'https://www.dhl.com/us-en/home/tracking.html?tracking-id=' },
  {
    code: 'canada_post',
    name: 'Canada Post',
    url: 'https://www.canadapost-postescanada.ca/track-reperage/en#/search?searchFor=',
  },
  { code: 'other', name: 'Other', url: null },
] as const;

export type CarrierCode = (typeof CARRIERS)[number]['code'];
export const CARRIER_CODES = CARRIERS.map((c) => c.code) as [CarrierCode, ...CarrierCode[]];

/** 6-40 letters and digits: what every carrier above prints (spaces and dashes are typed, not stored). */
export const TRACKING_NUMBER = /^[A-Za-z0-9]{6,40}$/;
export const TRACKING_MSG = 'The tracking number must be 6 to 40 letters and digits.';

/** A typed tracking number as stored: spaces and dashes dropped, letters upper case. */
export function normaliseTrackingNumber(typed: string): string {
  return typed.replace(/[\s-]/g, '').toUpperCase();
}

export function carrierName(code: string | null | undefined): string {
  return CARRIERS.find((c) => c.code === code)?.name ?? (code || '');
}

/** The carrier's public tracking page for a number, or null (no carrier, 'other', or a bad number). */
export function trackingUrl(
  code: string | null | undefined,
  number: string | null | undefined,
): string | null {
  const carrier = CARRIERS.find((c) => c.code === code);
  if (!carrier?.url || !number || !TRACKING_NUMBER.test(number)) return null;
  return `${carrier.url}${encodeURIComponent(number)}`;
}
