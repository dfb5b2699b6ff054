import path from 'node:path';
import { z } from 'zod';

// Every setting comes from the environment, read once and validated here; a wrong value stops start-up
// with a message naming the variable.

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => v || undefined)
  .pipe(z.url().optional());

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  PUBLIC_URL: optionalUrl,
  DATABASE_URL: optionalUrl,
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // How many reverse proxies stand in front of the shop: only their X-Forwarded-For entries are believed,
  // so a client cannot pick its own address by sending a fake one. true/yes = 1.
  TRUST_PROXY: z
    .string()
    .trim()
    .regex(/^(\d+|true|false|yes|no|)$/, 'expected a number of proxies (e.g. 1), true or false')
    .transform((v) =>
      v === 'true' || v === 'yes' ? 1 : v === 'false' || v === 'no' || v === '' ? 0 : Number(v),
    )
    .default(0),
  SHOP_NAME: z.string().min(1).default('Badger Print Co.'),
  SHOP_EMAIL: z.email().default('shop@localhost'),
  MAIL_FROM: z.string().min(1).optional(),
  SMTP_URL: optionalUrl,
  /** 'stripe' or 'simulator'; unset: Stripe with a key, the simulator on the embedded default only. */
  PAYMENT_PROVIDER: z
    .enum(['stripe', 'simulator', ''], "expected 'stripe' or 'simulator'")
    .optional()
    .transform((v) => v || undefined),
  STRIPE_SECRET_KEY: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(
          /^(sk|rk)_(test|live)_\w+$/,
          'expected a Stripe secret key (sk_live_..., sk_test_... or rk_...)',
        )
        .optional(),
    ),
  STRIPE_PUBLISHABLE_KEY: z.string().optional(),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .trim()
    .optional()
    .transform((v) => v || undefined)
    .pipe(
      z
        .string()
        .regex(/^whsec_\w+$/, 'expected a webhook signing secret (whsec_...)')
        .optional(),
    ),
  STRIPE_API_BASE: optionalUrl.refine(
    (v) => v === undefined || v.startsWith('https://') || isLoopbackUrl(v),
    'plain http: is only for a local stub on this machine (127.0.0.1, ::1 or localhost); use https://',
  ),
  /**
   * Stripe Tax computes and adds sales tax, GST/HST where the shop registered in its Stripe account
   * (README: taxes). Only with Stripe: the simulator charges no tax.
   */
  STRIPE_AUTOMATIC_TAX: z
    .enum(['true', 'false', '1', '0', ''], "expected 'true' or 'false'")
    .optional()
    .transform((v) => v === 'true' || v === '1'),
  /** The largest order total taken online, in dollars (Stripe's limit: 999,999.99). */
  MAX_ORDER_TOTAL_USD: z.coerce.number().positive().max(999_999.99).default(999_999.99),
  UPLOAD_RETENTION_HOURS: z.coerce.number().positive().default(72),
  /** Uploads are refused (507) while the file store's disk has less free space than this. */
  UPLOAD_MIN_FREE_MB: z.coerce.number().int().min(0).default(512),
  BUILD_VOLUME_MM: z
    .string()
    .regex(/^\d+(\.\d+)?x\d+(\.\d+)?x\d+(\.\d+)?$/, 'expected WxDxH in mm, e.g. 256x256x256')
    .default('256x256x256'),
  RATE_LIMIT_SCALE: z.coerce.number().positive().default(1),
  /** Open connections in all; keep it well under the process's file descriptor limit. */
  MAX_CONNECTIONS: z.coerce.number().int().min(1).default(4096),
  /** Open connections one client address may hold (0: no cap; off behind TRUST_PROXY, see connection-guard). */
  MAX_CONNECTIONS_PER_IP: z.coerce.number().int().min(0).default(64),
  /** Model files in an S3-compatible bucket instead of DATA_DIR/files (several app instances). */
  S3_BUCKET: z.string().trim().min(1).optional(),
  S3_REGION: z.string().trim().min(1).default('us-east-1'),
  S3_ENDPOINT: optionalUrl,
  S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
  S3_ACCESS_KEY_ID: z.string().optional(),
  S3_SECRET_ACCESS_KEY: z.string().optional(),
  S3_PREFIX: z
    .string()
    .regex(/^([\w.-]+\/)*$/, "expected folder names each ending in '/', e.g. printshop/")
    .default('printshop/'),
  /** Shared rate-limit counters for several app instances; in process without it. */
  REDIS_URL: optionalUrl,
  CLIENT_DIR: z.string().optional(),
});

export type Env = z.input<typeof envSchema>;

function isLoopbackUrl(value: string): boolean {
  try {
    const host = new URL(value).hostname;
    return host === 'localhost' || host === '[::1]' || /^127(\.\d{1,3}){3}$/.test(host);
  } catch {
    return false;
  }
}

/**
 * Which payment provider runs, never by surprise (docs/security.md): the simulator takes no money, so it
 * runs only on the embedded default (no DATABASE_URL) or when PAYMENT_PROVIDER=simulator says so; Stripe
 * needs both its secrets. Anything else stops start-up naming the variables to set.
 */
function paymentSettings(e: z.output<typeof envSchema>) {
  const key = e.STRIPE_SECRET_KEY;
  const webhookSecret = e.STRIPE_WEBHOOK_SECRET;
  const provider =
    e.PAYMENT_PROVIDER ?? (key || webhookSecret ? 'stripe' : e.DATABASE_URL ? undefined : 'simulator');
  if (provider === undefined) {
    throw new ConfigError(
      'Invalid configuration:\n  STRIPE_SECRET_KEY: not set, and the shop runs on DATABASE_URL. Set STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET to take payments with Stripe, or PAYMENT_PROVIDER=simulator to run the test simulator, which takes no money.',
    );
  }
  if (provider === 'simulator') {
    if (key || webhookSecret) {
      throw new ConfigError(
        'Invalid configuration:\n  PAYMENT_PROVIDER: simulator, but STRIPE_SECRET_KEY or STRIPE_WEBHOOK_SECRET is set. Remove the Stripe keys, or set PAYMENT_PROVIDER=stripe.',
      );
    }
    return { paymentProvider: 'simulator' as const, stripe: undefined };
  }
  const missing = [!key && 'STRIPE_SECRET_KEY', !webhookSecret && 'STRIPE_WEBHOOK_SECRET'].filter(Boolean);
  if (!key || !webhookSecret) {
    throw new ConfigError(
      `Invalid configuration:\n  ${missing.join(', ')}: Stripe needs both its secret key and the webhook signing secret (PAYMENT_PROVIDER=${e.PAYMENT_PROVIDER ?? 'stripe, from the key given'}).`,
    );
  }
  return {
    paymentProvider: 'stripe' as const,
    stripe: {
      secretKey: key,
      publishableKey: e.STRIPE_PUBLISHABLE_KEY,
      webhookSecret,
      apiBase: e.STRIPE_API_BASE,
      automaticTax: e.STRIPE_AUTOMATIC_TAX,
    },
  };
}

/**
 * `payments: false` for the command-line tools, which take no payment: they run with the shop's environment
 * or without its Stripe keys alike.
 */
export function loadConfig(
  env: Record<string, string | undefined> = process.env,
  options: { payments?: boolean } = {},
) {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.DATA_DIR);
  const [bx, by, bz] = e.BUILD_VOLUME_MM.split('x').map(Number) as [number, number, number];
  const port = e.PORT;
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${port || 3000}`).replace(/\/+$/, '');
  return {
    env: e.NODE_ENV,
    port,
    host: e.HOST,
    dataDir,
    publicUrl,
    secureCookies: publicUrl.startsWith('https://'),
    databaseUrl: e.DATABASE_URL,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    shopName: e.SHOP_NAME,
    shopEmail: e.SHOP_EMAIL,
    mailFrom: e.MAIL_FROM ?? `${e.SHOP_NAME} <${e.SHOP_EMAIL}>`,
    smtpUrl: e.SMTP_URL,
    ...(options.payments === false
      ? { paymentProvider: 'none' as const, stripe: undefined }
      : paymentSettings(e)),
    maxOrderCents: Math.round(e.MAX_ORDER_TOTAL_USD * 100),
    uploadRetentionMs: e.UPLOAD_RETENTION_HOURS * 3600_000,
    uploadMinFreeBytes: e.UPLOAD_MIN_FREE_MB * 1024 * 1024,
    buildVolumeMm: { x: bx, y: by, z: bz },
    rateLimitScale: e.RATE_LIMIT_SCALE,
    maxConnections: e.MAX_CONNECTIONS,
    // Behind proxies every connection comes from a proxy: cap clients there, not here.
    maxConnectionsPerIp: e.TRUST_PROXY > 0 ? 0 : e.MAX_CONNECTIONS_PER_IP,
    redisUrl: e.REDIS_URL,
    s3: e.S3_BUCKET
      ? {
          bucket: e.S3_BUCKET,
          region: e.S3_REGION,
          endpoint: e.S3_ENDPOINT,
          // A self-hosted store (an endpoint is given) almost always wants path-style addressing.
          forcePathStyle: (e.S3_FORCE_PATH_STYLE ?? (e.S3_ENDPOINT ? 'true' : 'false')) === 'true',
          accessKeyId: e.S3_ACCESS_KEY_ID,
          secretAccessKey: e.S3_SECRET_ACCESS_KEY,
          prefix: e.S3_PREFIX,
        }
      : undefined,
    clientDir: path.resolve(e.CLIENT_DIR ?? 'dist/client'),
    filesDir: path.join(dataDir, 'files'),
    outboxDir: path.join(dataDir, 'outbox'),
  };
}

export type Config = ReturnType<typeof loadConfig>;

export class ConfigError extends Error {}
