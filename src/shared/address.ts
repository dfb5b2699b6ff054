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

export const SHIPPING_COUNTRY_NAMES = { US: 'United States', CA: 'Canada' } as const;
export type ShippingCountry = keyof typeof SHIPPING_COUNTRY_NAMES;

/** The states or provinces of a country, code -> name. */
export function regionsOf(country: ShippingCountry): Record<string, string> {
  return country === 'CA' ? CA_PROVINCES : US_STATES;
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
} as const;

const text = (max: number, required?: string) => {
  const base = z.string().trim().max(max, `Use at most ${max} characters.`);
  return required ? base.min(1, required) : base;
};

export const shippingAddress = z
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
    const regions: Record<string, string> = regionsOf(a.country);
    if (!Object.hasOwn(regions, a.state)) {
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
export type ShippingAddress = z.output<typeof shippingAddress>;
export type ShippingAddressInput = z.input<typeof shippingAddress>;
