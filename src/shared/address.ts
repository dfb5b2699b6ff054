import { z } from 'zod';

// A shipping address as a hosted checkout collects it (docs/domain.md: the US and Canada only): one schema
// for the simulator's form in the browser and its check on the server.

export const US_STATES = {
  AL: 'Alabama',
  AK: 'Alaska',
  AZ: 'Arizona',
  AR: 'Arkansas',
  CA: 'California',
  CO: 'Colorado',
  CT: 'Connecticut',
  DE: 'Delaware',
  DC: 'District of Columbia',
  FL: 'Florida',
  GA: 'Georgia',
  HI: 'Hawaii',
  ID: 'Idaho',
  IL: 'Illinois',
  IN: 'Indiana',
  IA: 'Iowa',
  KS: 'Kansas',
  KY: 'Kentucky',
  LA: 'Louisiana',
  ME: 'Maine',
  MD: 'Maryland',
  MA: 'Massachusetts',
  MI: 'Michigan',
  MN: 'Minnesota',
  MS: 'Mississippi',
  MO: 'Missouri',
  MT: 'Montana',
  NE: 'Nebraska',
  NV: 'Nevada',
  NH: 'New Hampshire',
  NJ: 'New Jersey',
  NM: 'New Mexico',
  NY: 'New York',
  NC: 'North Carolina',
  ND: 'North Dakota',
  OH: 'Ohio',
  OK: 'Oklahoma',
  OR: 'Oregon',
  PA: 'Pennsylvania',
  PR: 'Puerto Rico',
  RI: 'Rhode Island',
  SC: 'South Carolina',
  SD: 'South Dakota',
  TN: 'Tennessee',
  TX: 'Texas',
  UT: 'Utah',
  VT: 'Vermont',
  VA: 'Virginia',
  WA: 'Washington',
  WV: 'West Virginia',
  WI: 'Wisconsin',
  WY: 'Wyoming',
} as const;

export const CA_PROVINCES = {
  AB: 'Alberta',
  BC: 'British Columbia',
  MB: 'Manitoba',
  NB: 'New Brunswick',
  NL: 'Newfoundland and Labrador',
  NS: 'Nova Scotia',
  NT: 'Northwest Territories',
  NU: 'Nunavut',
  ON: 'Ontario',
  PE: 'Prince Edward Island',
  QC: 'Quebec',
  SK: 'Saskatchewan',
  YT: 'Yukon',
} as const;

/**
 * The other US regions Stripe Checkout's address form offers: territories and the military post (APO/FPO/DPO).
 * A hosted checkout (Stripe's, or the simulator standing in for it) takes them; the shop does not ship there,
 * so a paid order with one is kept and flagged for staff to check the address.
 */
export const US_OTHER_REGIONS = {
  AS: 'American Samoa',
  GU: 'Guam',
  MP: 'Northern Mariana Islands',
  VI: 'U.S. Virgin Islands',
  UM: 'U.S. Outlying Islands',
  AA: 'Armed Forces Americas',
  AE: 'Armed Forces Europe',
  AP: 'Armed Forces Pacific',
} as const;

export const SHIPPING_COUNTRY_NAMES = { US: 'United States', CA: 'Canada' } as const;
export type ShippingCountry = keyof typeof SHIPPING_COUNTRY_NAMES;

/** The states or provinces of a country the shop ships to, code -> name. */
export function regionsOf(country: ShippingCountry): Record<string, string> {
  return country === 'CA' ? CA_PROVINCES : US_STATES;
}

/** The regions a hosted checkout offers (Stripe Checkout's list): the shop's, and the US's others. */
export function checkoutRegionsOf(country: ShippingCountry): Record<string, string> {
  return country === 'CA' ? CA_PROVINCES : { ...US_STATES, ...US_OTHER_REGIONS };
}

const US_ZIP = /^\d{5}(-\d{4})?$/;
// Canada Post: no D, F, I, O, Q or U anywhere, no W or Z first.
const CA_POSTAL = /^[ABCEGHJ-NPRSTVXY]\d[ABCEGHJ-NPRSTV-Z] ?\d[ABCEGHJ-NPRSTV-Z]\d$/;

export const ADDRESS_MSG = {
  name: 'Enter the name of the person we ship to.',
  line1: 'Enter the street address.',
  city: 'Enter the city.',
  country: 'We ship to the United States and Canada only.',
  state: 'Choose a state.',
  province: 'Choose a province or territory.',
  zip: 'Enter a ZIP code such as 53703 or 53703-1234.',
  postal: 'Enter a postal code such as K1A 0B1.',
  characters: 'Use letters, digits and punctuation only: no line breaks, tabs or text-direction marks.',
} as const;

/**
 * Control characters (line breaks, tabs, NUL...) and the invisible marks that reverse the direction of text:
 * in a name or an address they break the mail's lines or make a label read other than it is stored.
 */
export const UNSAFE_TEXT = /[\p{Cc}\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/u;

const text = (max: number, required?: string) => {
  const base = z
    .string()
    .refine((v) => !UNSAFE_TEXT.test(v), ADDRESS_MSG.characters)
    .transform((v) => v.trim())
    .pipe(z.string().max(max, `Use at most ${max} characters.`));
  return required ? base.pipe(z.string().min(1, required)) : base;
};

const addressFields = (regions: (country: ShippingCountry) => Record<string, string>) =>
  z
    .object({
      name: text(100, ADDRESS_MSG.name),
      line1: text(200, ADDRESS_MSG.line1),
      line2: text(200).default(''),
      city: text(100, ADDRESS_MSG.city),
      state: z.string().trim().toUpperCase(),
      postalCode: z.string().trim().toUpperCase(),
      country: z.enum(['US', 'CA'], ADDRESS_MSG.country),
    })
    .superRefine((a, ctx) => {
      const known = regions(a.country);
      if (!Object.hasOwn(known, a.state)) {
        ctx.addIssue({
          code: 'custom',
          path: ['state'],
          message: a.country === 'CA' ? ADDRESS_MSG.province : ADDRESS_MSG.state,
        });
      }
      const ok = a.country === 'CA' ? CA_POSTAL.test(a.postalCode) : US_ZIP.test(a.postalCode);
      if (!ok) {
        ctx.addIssue({
          code: 'custom',
          path: ['postalCode'],
          message: a.country === 'CA' ? ADDRESS_MSG.postal : ADDRESS_MSG.zip,
        });
      }
    })
    // Canadian codes are stored in their printed form, 'K1A 0B1'.
    .transform((a) =>
      a.country === 'CA' && a.postalCode.length === 6
        ? { ...a, postalCode: `${a.postalCode.slice(0, 3)} ${a.postalCode.slice(3)}` }
        : a,
    );

/** An address the shop ships to (docs/domain.md): the US's states, DC and Puerto Rico, and Canada. */
export const shippingAddress = addressFields(regionsOf);
/** An address a hosted checkout accepts (the simulator's form, as Stripe's): also territories and APO/FPO. */
export const checkoutAddress = addressFields(checkoutRegionsOf);
export type ShippingAddress = z.output<typeof shippingAddress>;
export type ShippingAddressInput = z.input<typeof shippingAddress>;
