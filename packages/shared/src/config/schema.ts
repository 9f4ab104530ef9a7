/**
 * A project's configuration: one typed document, rendered
 * from three levels of overrides (project → branch → environment) on top of
 * the defaults written here. A field's default is what its absence (or
 * `null`) means. Each level may set only its own keys: the project level the
 * project keys, the branch level the branch keys, the environment level the
 * branch keys plus the environment-only ones (credentials, servers, domains).
 */
import { z } from "zod";
import { CUSTOMER_TYPES, DEFAULT_EMAIL_THEME_ID, OAUTH_ACCOUNT_MERGE_STRATEGIES, OAUTH_PROVIDER_IDS } from "../constants.ts";
import { CURRENCY_CODES, currencyAmountsShape, paymentIntervalSchema } from "../money.ts";

export const CONFIG_LEVELS = ["project", "branch", "environment"] as const;
export type ConfigLevel = (typeof CONFIG_LEVELS)[number];

/** The apps a project can turn on (`apps.installed.<id>.enabled`). */
export const APP_IDS = [
  "authentication",
  "teams",
  "rbac",
  "api-keys",
  "payments",
  "emails",
  "data-vault",
  "webhooks",
  "launch-checklist",
  "analytics",
  "catalyst",
  "neon",
  "convex",
  "vercel",
] as const;

const permissionSet = z.record(z.string(), z.literal(true)).default({});
const interval = paymentIntervalSchema;
const customerType = z.enum(CUSTOMER_TYPES);

/**
 * What an id in the payments catalogue may be: a product's, a price's, an item's, a product line's. Up to 63
 * characters; a first digit is allowed, so every id the system we replace stores is storable here too
 * (packages/shared/test/config-payments.test.ts holds the cases).
 */
export const PAYMENTS_ID_PATTERN = /^[A-Za-z0-9_][A-Za-z0-9_-]{0,62}$/;
const paymentsId = z.string().regex(PAYMENTS_ID_PATTERN);

const price = z.object({
  ...currencyAmountsShape,
  interval: interval.optional(),
  serverOnly: z.boolean().default(false),
  freeTrial: interval.optional(),
});

/** A price names at least one currency; a null currency is an absent one. */
export function priceCurrencyProblem(value: Record<string, unknown>): string | null {
  return CURRENCY_CODES.some((code) => value[code] !== undefined && value[code] !== null) ? null : "At least one currency is required";
}

/**
 * Rules on a whole object, checked where an override writes the object itself, after its fields. Kept beside the
 * schema rather than as a refinement in it: the override check and rendering both walk objects field by field, so
 * a refinement on the object would never run. The rendered catalogue is checked again (see payments.ts).
 */
export const OBJECT_RULES: ReadonlyMap<z.ZodType, (value: Record<string, unknown>) => string | null> = new Map([
  [price, priceCurrencyProblem],
]);

const branchProvider = z.object({
  type: z.enum(OAUTH_PROVIDER_IDS),
  allowSignIn: z.boolean().default(false),
  allowConnectedAccounts: z.boolean().default(false),
});
const environmentProvider = branchProvider.extend({
  isShared: z.boolean().default(true),
  clientId: z.string().optional(),
  clientSecret: z.string().optional(),
  facebookConfigId: z.string().optional(),
  microsoftTenantId: z.string().optional(),
  appleBundles: z.record(z.string(), z.object({ bundleId: z.string() })).default({}),
});

const payments = <X extends z.core.$ZodLooseShape>(extra: X) =>
  z.object({
    blockNewPurchases: z.boolean().default(false),
    ...extra,
    autoPay: z.object({ interval: interval.optional() }).prefault({}),
    items: z.record(paymentsId, z.object({ displayName: z.string().optional(), customerType: customerType.default("user") })).default({}),
    productLines: z.record(paymentsId, z.object({ displayName: z.string().optional(), customerType: customerType.optional() })).default({}),
    products: z
      .record(
        paymentsId,
        z.object({
          displayName: z.string().optional(),
          productLineId: z.string().optional(),
          customerType: customerType.default("user"),
          isAddOnTo: z.union([z.literal(false), z.record(paymentsId, z.literal(true))]).default(false),
          serverOnly: z.boolean().default(false),
          stackable: z.boolean().default(false),
          freeTrial: interval.optional(),
          prices: z.union([z.literal("include-by-default"), z.record(paymentsId, price)]).default({}),
          includedItems: z
            .record(
              paymentsId,
              z.object({
                quantity: z.number().int().min(0).default(0),
                repeat: z.union([interval, z.literal("never")]).default("never"),
                expires: z.enum(["never", "when-purchase-expires", "when-repeated"]).default("when-repeated"),
              }),
            )
            .default({}),
        }),
      )
      .default({}),
  });

/**
 * `{}` as the input of an object whose fields all have defaults. Where the
 * object's shape is generic (the environment adds fields), the type checker
 * cannot see that `{}` is such an input.
 */
const EMPTY = {} as never;

/** The branch keys, with the environment-only ones the environment level adds (`extra`). */
function levelSchema<
  P extends z.ZodType,
  E extends z.core.$ZodLooseShape,
  Y extends z.core.$ZodLooseShape,
  T extends z.core.$ZodLooseShape,
>(extra: { provider: P; emails: E; payments: Y; top: T }) {
  return z.object({
    auth: z
      .object({
        allowSignUp: z.boolean().default(true),
        password: z.object({ allowSignIn: z.boolean().default(false) }).prefault({}),
        otp: z.object({ allowSignIn: z.boolean().default(false) }).prefault({}),
        passkey: z.object({ allowSignIn: z.boolean().default(false) }).prefault({}),
        oauth: z
          .object({
            accountMergeStrategy: z.enum(OAUTH_ACCOUNT_MERGE_STRATEGIES).default("link_method"),
            providers: z.record(z.string(), extra.provider).default({}),
          })
          .prefault({}),
        signUpRules: z
          .record(
            z.string(),
            z.object({
              enabled: z.boolean().default(false),
              displayName: z.string().optional(),
              priority: z.number().int().default(0),
              condition: z.string().optional(),
              action: z
                .object({ type: z.enum(["allow", "reject", "restrict", "log"]).default("allow"), message: z.string().optional() })
                .prefault({}),
            }),
          )
          .default({}),
        signUpRulesDefaultAction: z.enum(["allow", "reject", "restrict", "log"]).default("allow"),
      })
      .prefault({}),
    teams: z
      .object({
        createPersonalTeamOnSignUp: z.boolean().default(false),
        allowClientTeamCreation: z.boolean().default(false),
      })
      .prefault({}),
    users: z.object({ allowClientUserDeletion: z.boolean().default(false) }).prefault({}),
    onboarding: z.object({ requireEmailVerification: z.boolean().default(false) }).prefault({}),
    apiKeys: z
      .object({ enabled: z.object({ user: z.boolean().default(false), team: z.boolean().default(false) }).prefault({}) })
      .prefault({}),
    rbac: z
      .object({
        permissions: z
          .record(
            z.string(),
            z.object({
              description: z.string().optional(),
              scope: z.enum(["team", "project"]).optional(),
              containedPermissionIds: permissionSet,
            }),
          )
          .default({}),
        defaultPermissions: z.object({ teamCreator: permissionSet, teamMember: permissionSet, signUp: permissionSet }).prefault({}),
      })
      .prefault({}),
    apps: z
      .object({
        installed: z
          .object(Object.fromEntries(APP_IDS.map((id) => [id, z.object({ enabled: z.boolean().default(false) }).prefault({})])))
          .prefault({}),
      })
      .prefault({}),
    emails: z
      .object({
        selectedThemeId: z.uuid().default(DEFAULT_EMAIL_THEME_ID),
        themes: z.record(z.uuid(), z.object({ displayName: z.string(), tsxSource: z.string() })).default({}),
        templates: z
          .record(
            z.uuid(),
            z.object({ displayName: z.string(), tsxSource: z.string(), themeId: z.union([z.uuid(), z.literal(false)]).optional() }),
          )
          .default({}),
        ...extra.emails,
      })
      .prefault(EMPTY),
    dataVault: z
      .object({ stores: z.record(z.string(), z.object({ displayName: z.string().default("Unnamed Vault") })).default({}) })
      .prefault({}),
    payments: payments(extra.payments).prefault(EMPTY),
    ...extra.top,
  });
}

/** Keys of the project level. */
export const projectLevelSchema = z.object({
  sourceOfTruth: z.looseObject({ type: z.string() }).default({ type: "hosted" }),
  project: z.object({ requirePublishableClientKey: z.boolean().default(false) }).prefault({}),
});

export const branchLevelSchema = levelSchema({ provider: branchProvider, emails: {}, payments: {}, top: {} });
export const environmentLevelSchema = levelSchema({
  provider: environmentProvider,
  emails: {
    server: z
      .object({
        isShared: z.boolean().default(true),
        provider: z.enum(["smtp", "resend", "managed"]).default("smtp"),
        host: z.string().optional(),
        port: z.number().int().min(0).max(65535).optional(),
        username: z.string().optional(),
        password: z.string().optional(),
        senderName: z.string().optional(),
        senderEmail: z.string().optional(),
        managedSubdomain: z.string().optional(),
        managedSenderLocalPart: z.string().optional(),
      })
      .prefault({}),
  },
  payments: { testMode: z.boolean().default(true) },
  top: {
    domains: z
      .object({
        allowLocalhost: z.boolean().default(false),
        trustedDomains: z.record(z.string(), z.object({ baseUrl: z.string(), handlerPath: z.string().default("/handler") })).default({}),
      })
      .prefault({}),
  },
});

/** The rendered document: every level's keys. */
export const renderedConfigSchema = environmentLevelSchema.extend(projectLevelSchema.shape);
export type RenderedConfig = z.output<typeof renderedConfigSchema>;

/** What each level may set. */
export const LEVEL_SCHEMAS: Record<ConfigLevel, z.ZodObject> = {
  project: projectLevelSchema,
  branch: branchLevelSchema,
  environment: environmentLevelSchema,
};
