/**
 * Purchase codes: what create-purchase-url hands the purchase page. The full
 * code is `<project id>_<45 random characters>`; the project id says where
 * to look, and only the code's SHA-256 is stored. A code lasts 24 hours of
 * the project's payments time and is taken by one purchase: the update that
 * marks it used only matches an unused, unexpired row, so of concurrent
 * purchases with one code exactly one gets it (the others find none: 404).
 */
import { createHash, randomInt } from "node:crypto";
import { DEFAULT_BRANCH_ID, KnownErrors, UUID_PATTERN } from "@latchkey/shared";
import { and, eq, gt, isNull } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { sweepOlderThan } from "../../../db/sweep.ts";
import { inTenancy, type Tenancy } from "../../../db/tenancy.ts";
import type { Services } from "../../../services.ts";
import { paymentPurchaseCodes } from "../schema.ts";
import type { Customer } from "./customers.ts";
import type { ProductSnapshot } from "./product-snapshot.ts";

export const PURCHASE_CODE_TTL_MS = 24 * 60 * 60 * 1000;
/** Expired codes are kept a day more (a late purchase page then still finds nothing, as it would), then deleted. */
const KEPT_AFTER_EXPIRY_MS = 24 * 60 * 60 * 1000;
const SWEEP_ROWS = 500;
const CODE_LENGTH = 45;
/** Lower-case letters and digits: the code sits in a URL path as it is. */
const CODE_ALPHABET = "abcdefghijklmnopqrstuvwxyz0123456789";

export interface PurchaseCode {
  id: string;
  customer: Customer;
  productId: string | null;
  product: ProductSnapshot;
}

function digest(fullCode: string): string {
  return createHash("sha256").update(fullCode).digest("hex");
}

/** Makes a code for the customer and product; answers the full code. */
export async function createPurchaseCode(
  db: DbOrTx,
  scope: Tenancy,
  customer: Customer,
  productId: string | null,
  product: ProductSnapshot,
  now: Date,
): Promise<string> {
  let code = "";
  for (let i = 0; i < CODE_LENGTH; i++) code += CODE_ALPHABET[randomInt(CODE_ALPHABET.length)];
  const fullCode = `${scope.projectId}_${code}`;
  await db.insert(paymentPurchaseCodes).values({
    ...scope,
    codeHash: digest(fullCode),
    customerType: customer.type,
    customerId: customer.id,
    productId,
    product,
    expiresAt: new Date(now.getTime() + PURCHASE_CODE_TTL_MS),
    createdAt: now,
  });
  return fullCode;
}

/** The project a full code names (its main branch), or none when it names no project's id. */
export function scopeOfCode(fullCode: string): Tenancy | null {
  const separator = fullCode.indexOf("_");
  const projectId = separator === -1 ? "" : fullCode.slice(0, separator);
  return projectId === "internal" || UUID_PATTERN.test(projectId) ? { projectId, branchId: DEFAULT_BRANCH_ID } : null;
}

function usable(scope: Tenancy, fullCode: string, now: Date) {
  return and(
    inTenancy(paymentPurchaseCodes, scope),
    eq(paymentPurchaseCodes.codeHash, digest(fullCode)),
    isNull(paymentPurchaseCodes.usedAt),
    gt(paymentPurchaseCodes.expiresAt, now),
  );
}

const codeColumns = {
  id: paymentPurchaseCodes.id,
  customerType: paymentPurchaseCodes.customerType,
  customerId: paymentPurchaseCodes.customerId,
  productId: paymentPurchaseCodes.productId,
  product: paymentPurchaseCodes.product,
};

function codeOf(row: {
  id: string;
  customerType: Customer["type"];
  customerId: string;
  productId: string | null;
  product: ProductSnapshot;
}) {
  return { id: row.id, customer: { type: row.customerType, id: row.customerId }, productId: row.productId, product: row.product };
}

/** The unused, unexpired code, or VERIFICATION_CODE_NOT_FOUND. */
export async function findPurchaseCode(services: Services, scope: Tenancy, fullCode: string, now: Date): Promise<PurchaseCode> {
  const [row] = await services.db
    .select(codeColumns)
    .from(paymentPurchaseCodes)
    .where(usable(scope, fullCode, now));
  if (!row) throw new KnownErrors.VerificationCodeNotFound();
  return codeOf(row);
}

/**
 * The code as it was issued, used or not, until it expires: what the purchase page's return page still reads
 * after the payment used it up. VERIFICATION_CODE_NOT_FOUND when it is unknown or expired.
 */
export async function findIssuedPurchaseCode(services: Services, scope: Tenancy, fullCode: string, now: Date): Promise<PurchaseCode> {
  const [row] = await services.db
    .select(codeColumns)
    .from(paymentPurchaseCodes)
    .where(
      and(
        inTenancy(paymentPurchaseCodes, scope),
        eq(paymentPurchaseCodes.codeHash, digest(fullCode)),
        gt(paymentPurchaseCodes.expiresAt, now),
      ),
    );
  if (!row) throw new KnownErrors.VerificationCodeNotFound();
  return codeOf(row);
}

/** Marks the code used, in the purchase's transaction; VERIFICATION_CODE_NOT_FOUND when it is not (or no longer) usable. */
export async function takePurchaseCode(tx: DbOrTx, scope: Tenancy, fullCode: string, now: Date): Promise<PurchaseCode> {
  const [row] = await tx
    .update(paymentPurchaseCodes)
    .set({ usedAt: now })
    .where(usable(scope, fullCode, now))
    .returning(codeColumns);
  if (!row) throw new KnownErrors.VerificationCodeNotFound();
  return codeOf(row);
}

/** Housekeeping, across all projects: deletes a batch of codes that expired over a day ago (used ones too). */
export function deleteExpiredPurchaseCodes(db: DbOrTx, now: Date): Promise<number> {
  const cutoff = new Date(now.getTime() - KEPT_AFTER_EXPIRY_MS);
  return sweepOlderThan(db, paymentPurchaseCodes, paymentPurchaseCodes.expiresAt, cutoff, SWEEP_ROWS);
}
