import { z } from 'zod';
import { STRENGTHS } from './catalog.ts';
import { shippingMethod, shippingSettings } from './shipping.ts';

// The back office's settings (docs/api.md "Admin", issue #25): the payloads of /api/admin/settings/..., the
// words the panel shows for every setting (label, unit, one-line explanation) and the sentences the server
// answers for a bad value, which name the setting as the panel does.
//
// The stored values' rules (ranges, defaults) are the server's: src/server/pricing/settings.ts,
// src/server/shipping/production-settings.ts and src/server/settings/shop-settings.ts. The schemas here give their shape to the route table and the
// panel (strict objects: an unknown key is refused); the server checks at compile time that both shapes are
// the same (src/server/admin/settings/shapes.ts) and then validates the ranges with its own schemas.
// Shipping methods are shared already (./shipping.ts). Money is whole or fractional cents, infill a fraction.

export type SettingsSection = 'pricing' | 'shipping' | 'production' | 'shop';

const infill = z.strictObject({
  '1': z.number(),
  '2': z.number(),
  '3': z.number(),
  '4': z.number(),
  '5': z.number(),
});

/** Every pricing constant (docs/domain.md "Prices"), in the API's units: cents, fractions, millimetres. */
export const pricingValues = z.strictObject({
  wallThicknessMm: z.number(),
  minWallMm: z.number(),
  densityGPerCm3: z.number(),
  pricePerGramCents: z.number(),
  printSpeedCm3PerHour: z.number(),
  hourlyRateCents: z.number(),
  setupFeeCents: z.number(),
  minimumCents: z.number(),
  infillByStrength: infill,
  quantityTiers: z.array(z.strictObject({ minQuantity: z.number(), percent: z.number() })),
});
export type PricingValues = z.infer<typeof pricingValues>;
export type QuantityTierValue = PricingValues['quantityTiers'][number];

export const HOLIDAY_COUNTRY_NAMES = { US: 'United States', CA: 'Canada', '': 'None' } as const;

/** The production capacity (docs/domain.md "Ship-by date"), as the admin edits it. */
export const productionValues = z.strictObject({
  printers: z.number(),
  hoursPerDay: z.number(),
  workingDays: z.array(z.number()),
  cutoff: z.string(),
  timeZone: z.string(),
  holidays: z.strictObject({
    country: z.enum(['US', 'CA', '']),
    region: z.string().optional(),
    extraDays: z.array(z.string()),
    workingDays: z.array(z.string()),
  }),
});
export type ProductionValues = z.infer<typeof productionValues>;

/** The shop's own settings: the printer's build volume (mm) and how long an unordered upload is kept (hours). */
export const shopValues = z.strictObject({
  buildVolumeMm: z.strictObject({ x: z.number(), y: z.number(), z: z.number() }),
  uploadRetentionHours: z.number(),
});
export type ShopValues = z.infer<typeof shopValues>;

// Requests. A PUT takes the full values of its section (every key): what differs from the defaults in code is
// stored as an override, what equals them is not (so a later change of a default applies to it).

export const adminPricingSaveRequest = z.strictObject({ values: pricingValues });

/** A preview's sample: one of the built-in shapes below, or the id of any stored model. */
export const adminPricingPreviewRequest = z.strictObject({
  values: pricingValues,
  sample: z.string().min(1).max(40),
});

/** Each country's shipping methods as the admin saves them: the shop's rules, and no unknown key anywhere. */
export const shippingValues = shippingSettings
  .extend({
    US: z.array(shippingMethod.strict()).pipe(shippingSettings.shape.US),
    CA: z.array(shippingMethod.strict()).pipe(shippingSettings.shape.CA),
  })
  .strict();
export const adminShippingSaveRequest = z.strictObject({ values: shippingValues });
export const adminProductionSaveRequest = z.strictObject({ values: productionValues });
export const adminShopSaveRequest = z.strictObject({ values: shopValues });

// Answers.

const section = <V extends z.ZodType>(values: V) =>
  z.object({
    /** In force now: the stored overrides over the defaults. */
    values,
    defaults: values,
    /** The keys whose value is stored (differs from the default). */
    overridden: z.array(z.string()),
  });

export const adminPricingPayload = section(pricingValues);
export type AdminPricingPayload = z.infer<typeof adminPricingPayload>;

export const adminShippingPayload = section(shippingSettings);
export type AdminShippingPayload = z.infer<typeof adminShippingPayload>;

export const adminProductionPayload = section(productionValues).extend({
  /** An order paid now, with the print queue as it is: the day it ships by, in the shop's time zone. */
  preview: z.object({ at: z.string(), shipBy: z.string(), queueHours: z.number() }),
});
export type AdminProductionPayload = z.infer<typeof adminProductionPayload>;

/** The defaults are the environment's (BUILD_VOLUME_MM, UPLOAD_RETENTION_HOURS). */
export const adminShopPayload = section(shopValues);
export type AdminShopPayload = z.infer<typeof adminShopPayload>;

const previewPrice = z.object({
  unitCents: z.number(),
  lineCents: z.number(),
  discountPercent: z.number(),
  minimumApplied: z.boolean(),
});
export type PreviewPrice = z.infer<typeof previewPrice>;

export const adminPricingPreviewPayload = z.object({
  sample: z.object({
    id: z.string(),
    label: z.string(),
    volumeCm3: z.number(),
    areaCm2: z.number(),
    dimensions: z.object({ x: z.number(), y: z.number(), z: z.number() }),
  }),
  /** Every strength 1-5 at each of PREVIEW_QUANTITIES: the price in force and with the unsaved values. */
  rows: z.array(
    z.object({ strength: z.number(), quantity: z.number(), before: previewPrice, after: previewPrice }),
  ),
});
export type AdminPricingPreviewPayload = z.infer<typeof adminPricingPreviewPayload>;

export const adminSettingsHistoryQuery = z.object({
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  section: z.enum(['pricing', 'shipping', 'production', 'shop', '']).optional(),
});

export const settingsChange = z.object({
  id: z.number(),
  section: z.string(),
  /** A key of the section, one level down where a value has parts: 'infillByStrength.3', 'holidays.extraDays'. */
  key: z.string(),
  oldValue: z.unknown(),
  newValue: z.unknown(),
  /** The admin's username; null when made outside the panel or the account is gone. */
  changedBy: z.string().nullable(),
  changedAt: z.string(),
});
export type SettingsChange = z.infer<typeof settingsChange>;

export const adminSettingsHistoryPayload = z.object({
  changes: z.array(settingsChange),
  total: z.number(),
  page: z.number(),
  pageSize: z.number(),
});
export type AdminSettingsHistoryPayload = z.infer<typeof adminSettingsHistoryPayload>;

/** A refused value: the sentence, and the field it is about ('pricePerGramCents', 'US.0.priceCents'). */
export type SettingsError = { error: string; field?: string };

// The preview's samples: synthetic measures, so the preview needs no stored file.

export const PREVIEW_QUANTITIES = [1, 10, 50] as const;

export const PREVIEW_SAMPLES = [
  { id: 'cube-20', label: '20 mm cube', dimensions: { x: 20, y: 20, z: 20 }, volumeCm3: 8, areaCm2: 24 },
  {
    id: 'block',
    label: 'Block 60 x 40 x 30 mm',
    dimensions: { x: 60, y: 40, z: 30 },
    volumeCm3: 72,
    areaCm2: 108,
  },
  { id: 'cube-50', label: '50 mm cube', dimensions: { x: 50, y: 50, z: 50 }, volumeCm3: 125, areaCm2: 150 },
  {
    id: 'plate',
    label: 'Plate 100 x 100 x 3 mm',
    dimensions: { x: 100, y: 100, z: 3 },
    volumeCm3: 30,
    areaCm2: 212,
  },
  {
    // A hollow cylinder with 2 mm walls and a closed bottom: mostly wall, so the infill matters little.
    id: 'vase',
    label: 'Vase 80 mm across, 150 mm tall',
    dimensions: { x: 80, y: 80, z: 150 },
    volumeCm3: 82.59,
    areaCm2: 830.89,
  },
] as const;
export type PreviewSampleId = (typeof PREVIEW_SAMPLES)[number]['id'];

// The words of every setting.

type Shown = 'number' | 'dollars' | 'percent';

export type PricingField = {
  key: Exclude<keyof PricingValues, 'infillByStrength' | 'quantityTiers'>;
  label: string;
  /** The unit of the value as the panel shows it. */
  unit: string;
  help: string;
  /** How the panel shows the API's value: as it is, cents as dollars, or a fraction as a percent. */
  shown: Shown;
};

export const PRICING_FIELDS: readonly PricingField[] = [
  {
    key: 'pricePerGramCents',
    label: 'Price per gram',
    unit: '¢ per gram',
    help: 'What a gram of printed plastic costs the customer.',
    shown: 'number',
  },
  {
    key: 'hourlyRateCents',
    label: 'Machine rate',
    unit: '$ per hour',
    help: 'Charged for each estimated hour of printing.',
    shown: 'dollars',
  },
  {
    key: 'setupFeeCents',
    label: 'Setup fee',
    unit: '$ per piece',
    help: 'Added to every piece before the minimum applies.',
    shown: 'dollars',
  },
  {
    key: 'minimumCents',
    label: 'Minimum price',
    unit: '$ per piece',
    help: 'No piece costs less than this (at least $0.01).',
    shown: 'dollars',
  },
  {
    key: 'wallThicknessMm',
    label: 'Wall thickness',
    unit: 'mm',
    help: 'The shell printed solid around every model; infill fills the rest.',
    shown: 'number',
  },
  {
    key: 'minWallMm',
    label: 'Minimum wall',
    unit: 'mm',
    help: 'No model is priced as less plastic than its walls at this thickness; 0 turns it off.',
    shown: 'number',
  },
  {
    key: 'densityGPerCm3',
    label: 'Material density',
    unit: 'g/cm³',
    help: 'The weight of a cubic centimetre of filament (PLA: 1.24).',
    shown: 'number',
  },
  {
    key: 'printSpeedCm3PerHour',
    label: 'Printing speed',
    unit: 'cm³ per hour',
    help: 'Plastic one printer lays down in an hour: it sets the estimated printing time.',
    shown: 'number',
  },
];

export const INFILL_HELP = 'The share of the inside printed for each strength; the shell is always solid.';
export const TIERS_HELP =
  'Percent off a line from a quantity of pieces; each tier starts at more pieces and takes more off than the one before.';

const COUNTRY_NAMES: Record<string, string> = { US: 'United States', CA: 'Canada' };

const PRODUCTION_LABELS: Record<string, string> = {
  printers: 'Printers',
  hoursPerDay: 'Printing hours a day',
  workingDays: 'Working days',
  cutoff: 'Daily cut-off',
  timeZone: 'Time zone',
  holidays: 'Holidays',
  'holidays.country': 'Public holidays of',
  'holidays.region': 'State or province',
  'holidays.extraDays': 'Extra closure days',
  'holidays.workingDays': 'Holidays worked',
};

/** The shop settings' words: each axis of the build volume is its own field. */
export const SHOP_FIELDS = [
  {
    key: 'buildVolumeMm.x',
    label: 'Build volume X (width)',
    unit: 'mm',
    help: 'The printer’s build plate width: a model must fit the build volume in some orientation.',
  },
  {
    key: 'buildVolumeMm.y',
    label: 'Build volume Y (depth)',
    unit: 'mm',
    help: 'The printer’s build plate depth.',
  },
  {
    key: 'buildVolumeMm.z',
    label: 'Build volume Z (height)',
    unit: 'mm',
    help: 'The highest the printer can print.',
  },
  {
    key: 'uploadRetentionHours',
    label: 'Upload retention',
    unit: 'hours',
    help: 'How long an upload that no order holds is kept before it is removed.',
  },
] as const;
export type ShopFieldKey = (typeof SHOP_FIELDS)[number]['key'];

const SHIPPING_METHOD_LABELS: Record<string, string> = {
  id: 'id',
  name: 'name',
  priceCents: 'price',
  transitDays: 'transit days',
  freeFromCents: 'free from',
  min: 'fewest transit days',
  max: 'most transit days',
};

const SECTION_NAMES: Record<SettingsSection, string> = {
  pricing: 'Pricing',
  shipping: 'Shipping',
  production: 'Production',
  shop: 'Shop',
};

export const sectionName = (s: string) => SECTION_NAMES[s as SettingsSection] ?? s;

type Path = readonly PropertyKey[];

function strengthWords(level: string): string {
  const s = STRENGTHS.find((x) => String(x.level) === level);
  return s ? `${s.label} (${s.level}/5)` : level;
}

function labelAndShown(section: SettingsSection, path: Path): { label: string; shown: Shown } {
  const [a, b, c, d] = path.map(String);
  if (section === 'pricing') {
    const field = PRICING_FIELDS.find((f) => f.key === a);
    if (field) return { label: field.label, shown: field.shown };
    if (a === 'infillByStrength') {
      return { label: b ? `Infill for ${strengthWords(b)}` : 'Infill', shown: 'percent' };
    }
    if (a === 'quantityTiers') {
      if (b === undefined) return { label: 'Quantity discounts', shown: 'number' };
      const tier = `Quantity discount ${Number(b) + 1}`;
      if (c === 'minQuantity') return { label: `${tier}: from quantity`, shown: 'number' };
      if (c === 'percent') return { label: `${tier}: percent off`, shown: 'number' };
      return { label: tier, shown: 'number' };
    }
    return { label: a ? a : 'Pricing', shown: 'number' };
  }
  if (section === 'shipping') {
    if (!a) return { label: 'Shipping', shown: 'number' };
    const country = COUNTRY_NAMES[a] ?? a;
    if (b === undefined) return { label: `Shipping to ${country}`, shown: 'number' };
    const method = `Shipping to ${country}, method ${Number(b) + 1}`;
    if (c === undefined) return { label: method, shown: 'number' };
    const part = SHIPPING_METHOD_LABELS[d ?? c] ?? c;
    return {
      label: `${method}: ${part}`,
      shown: c === 'priceCents' || c === 'freeFromCents' ? 'dollars' : 'number',
    };
  }
  if (section === 'production') {
    const key = a === 'holidays' && b !== undefined ? `holidays.${b}` : (a ?? '');
    return { label: PRODUCTION_LABELS[key] ?? (key || 'Production'), shown: 'number' };
  }
  const key = a === 'buildVolumeMm' && b !== undefined ? `buildVolumeMm.${b}` : (a ?? '');
  const field = SHOP_FIELDS.find((f) => f.key === key);
  if (field) return { label: field.label, shown: 'number' };
  return { label: key === 'buildVolumeMm' ? 'Build volume' : key || 'Shop', shown: 'number' };
}

/** The setting a key or an error's path names, as the panel labels it: 'Infill for Standard (3/5)'. */
export function settingLabel(section: string, key: string | Path): string {
  const path = typeof key === 'string' ? (key === '' ? [] : key.split('.')) : key;
  return labelAndShown(section as SettingsSection, path).label;
}

/** An API value as the panel shows it: 2.5 (dollars) for 250 cents, 25 (%) for 0.25. */
export function toShown(shown: Shown, value: number): number {
  if (shown === 'dollars') return Number((value / 100).toFixed(6));
  if (shown === 'percent') return Number((value * 100).toFixed(6));
  return value;
}

/** The value the panel shows back in the API's units (cents, fractions). */
export function fromShown(shown: Shown, value: number): number {
  if (shown === 'dollars') return Number((value * 100).toFixed(6));
  if (shown === 'percent') return Number((value / 100).toFixed(8));
  return value;
}

function limitText(shown: Shown, limit: number): string {
  if (shown === 'dollars') {
    return `$${(limit / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;
  }
  if (shown === 'percent') return `${toShown('percent', limit)} %`;
  return limit.toLocaleString('en-US', { maximumFractionDigits: 6 });
}

/** What a zod issue raises in this section (the error map's input; `path` from the section's values down). */
export type SettingsIssue = {
  code: string;
  path?: Path;
  input?: unknown;
  expected?: string;
  origin?: string;
  minimum?: number | bigint;
  maximum?: number | bigint;
  inclusive?: boolean;
  keys?: readonly string[];
  values?: readonly unknown[];
  message?: string;
};

/**
 * The sentence for a refused value, naming the setting as the panel labels it and its limit in the panel's
 * unit: 'Machine rate must be at least $0.00.', 'Infill for Solid (5/5) must be at most 100 %.'
 */
export function settingsIssueMessage(section: SettingsSection, issue: SettingsIssue): string {
  const path = issue.path ?? [];
  const { label, shown } = labelAndShown(section, path);
  const limit = (n: number | bigint | undefined) => limitText(shown, Number(n));
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return `${label} is missing.`;
      if (issue.expected === 'int') {
        return shown === 'dollars' ? `${label} must be in whole cents.` : `${label} must be a whole number.`;
      }
      if (issue.expected === 'number') return `${label} must be a number.`;
      if (issue.expected === 'string') return `${label} must be text.`;
      if (issue.expected === 'array') return `${label} must be a list.`;
      return `${label} is not valid.`;
    case 'too_small':
      if (issue.origin === 'array') {
        const n = Number(issue.minimum);
        return `${label} needs at least ${n} ${n === 1 ? 'entry' : 'entries'}.`;
      }
      if (issue.origin === 'string') return `${label} cannot be empty.`;
      return issue.inclusive
        ? `${label} must be at least ${limit(issue.minimum)}.`
        : `${label} must be more than ${limit(issue.minimum)}.`;
    case 'too_big':
      if (issue.origin === 'array') return `${label} may have at most ${Number(issue.maximum)} entries.`;
      if (issue.origin === 'string')
        return `${label} is too long (at most ${Number(issue.maximum)} characters).`;
      return issue.inclusive
        ? `${label} must be at most ${limit(issue.maximum)}.`
        : `${label} must be less than ${limit(issue.maximum)}.`;
    case 'unrecognized_keys': {
      const keys = issue.keys ?? [];
      return `${label}: unknown ${keys.length === 1 ? 'setting' : 'settings'} ${keys.join(', ')}.`;
    }
    case 'invalid_value':
      return `${label} must be one of: ${(issue.values ?? []).map((v) => (v === '' ? "''" : String(v))).join(', ')}.`;
    case 'invalid_format':
      return `${label} is not written as expected.`;
    default:
      return issue.message && issue.code === 'custom' ? issue.message : `${label} is not valid.`;
  }
}

/** The field a refused value is about: its path, or for an unknown key the key itself. */
export function issueField(issue: { code: string; path: Path; keys?: readonly string[] }): string {
  const path =
    issue.code === 'unrecognized_keys' && issue.keys?.[0] ? [...issue.path, issue.keys[0]] : issue.path;
  return path.map(String).join('.');
}

/**
 * The quantity tiers' own rule: each starts at more pieces and takes more off than the one before, and takes
 * something off. The first problem, with the path of the value at fault; null when there is none.
 */
export function tierOrderProblem(
  tiers: readonly QuantityTierValue[],
): { path: (string | number)[]; message: string } | null {
  for (const [i, tier] of tiers.entries()) {
    const name = `Quantity discount ${i + 1}`;
    if (tier.percent <= 0) {
      return { path: [i, 'percent'], message: `${name}: percent off must be more than 0.` };
    }
    const before = tiers[i - 1];
    if (!before) continue;
    if (tier.minQuantity <= before.minQuantity) {
      return {
        path: [i, 'minQuantity'],
        message: `${name}: from quantity must be more than discount ${i}'s (${before.minQuantity}).`,
      };
    }
    if (tier.percent <= before.percent) {
      return {
        path: [i, 'percent'],
        message: `${name}: percent off must be more than discount ${i}'s (${before.percent}).`,
      };
    }
  }
  return null;
}

/** '2026-12-01' -> 'Tue, Dec 1, 2026' (a shop day, read at noon UTC so no time zone moves it). */
export function formatShopDay(day: string): string {
  const d = new Date(`${day}T12:00:00Z`);
  if (Number.isNaN(d.getTime())) return day;
  return d.toLocaleDateString('en-US', {
    weekday: 'short',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    timeZone: 'UTC',
  });
}
