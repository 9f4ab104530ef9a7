/**
 * The field validation rules, shared by the server (request schemas) and the SDK.
 * Messages here are the ones a caller sees after the field path, e.g.
 * `body.email must be a valid email`.
 */
import { z } from "zod";
import { isDataUrl, parseImageDataUrl } from "./image-data-url.ts";
import {
  BCRYPT_MAX_COST,
  BRANCH_ID_MAX_LENGTH,
  DISPLAY_NAME_MAX_LENGTH,
  EMAIL_MAX_LENGTH,
  PROFILE_IMAGE_MAX_BYTES,
  TOTP_SECRET_MIN_BYTES,
  URL_MAX_LENGTH,
  VERIFICATION_CODE_LENGTH,
} from "./constants.ts";

/**
 * Stricter than RFC 5322 on purpose: no leading dot or '..' in the local part,
 * and the domain must end in a suffix of at least two letters.
 */
const EMAIL_PATTERN = /^(?!\.)(?!.*\.\.)[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@(?:[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?\.)+[A-Za-z]{2,}$/;

export function isValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(value) && !value.split("@")[0]!.endsWith(".");
}

export const emailSchema = z.string().max(EMAIL_MAX_LENGTH).refine(isValidEmail, { message: "must be a valid email" });

/**
 * The looser form a server-side write is held to, as the reference holds it:
 * the pattern of an HTML e-mail input (any local part of the allowed
 * characters, an @, then dot-separated labels). Addresses imported from other
 * systems (`.x@example.com`, `a@intranet`, a sender on `mail.example.co2`)
 * pass; what users type at sign-up still meets `emailSchema`.
 */
const LOOSE_EMAIL_PATTERN =
  /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

export function isLooselyValidEmail(value: string): boolean {
  return value.length <= EMAIL_MAX_LENGTH && LOOSE_EMAIL_PATTERN.test(value);
}

export const serverEmailSchema = z.string().max(EMAIL_MAX_LENGTH).refine(isLooselyValidEmail, { message: "must be a valid email" });

export function isValidUrl(value: string): boolean {
  if (/\s/.test(value)) return false;
  try {
    new URL(value);
    return true;
  } catch {
    return false;
  }
}

export const urlSchema = z
  .string()
  .max(URL_MAX_LENGTH)
  .refine((v) => !/\s/.test(v), { message: "contains spaces", abort: true })
  .refine(isValidUrl, { message: "is not a valid URL" });

/** A one-time code as a request carries it: exactly 45 characters, matched case-insensitively. */
export const verificationCodeSchema = z.string().length(VERIFICATION_CODE_LENGTH);

/**
 * Ids arrive in any case and leave in lower case, as the database writes
 * them: caches and comparisons then see one spelling of each id.
 */
export const uuidSchema = z
  .string()
  .refine((v) => UUID_PATTERN.test(v), { message: "must be a valid UUID" })
  .transform((v) => v.toLowerCase());
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** "user id or me": a UUID, or `me` for the signed-in user. */
export const userIdOrMeSchema = z
  .string()
  .refine((v) => v === "me" || UUID_PATTERN.test(v), { message: "must be a valid UUID" })
  .transform((v) => v.toLowerCase());

export const projectIdSchema = z.string().refine((v) => v === "internal" || UUID_PATTERN.test(v), { message: "must be a valid UUID" });

export const branchIdSchema = z.string().min(1).max(BRANCH_ID_MAX_LENGTH);

/** Empty string means "no name", stored as null. */
export const displayNameSchema = z
  .string()
  .max(DISPLAY_NAME_MAX_LENGTH)
  .nullable()
  .transform((v) => (v === "" ? null : v));

export function byteLength(value: string): number {
  return new TextEncoder().encode(value).length;
}

const imageUrlString = z
  .string()
  .refine((v) => byteLength(v) < PROFILE_IMAGE_MAX_BYTES, {
    message: `must be smaller than ${PROFILE_IMAGE_MAX_BYTES / 1024}KB`,
    abort: true,
  })
  .refine((v) => !/\s/.test(v), { message: "contains spaces", abort: true });

function checkImageDataUrl(value: string, ctx: z.RefinementCtx): void {
  if (byteLength(value) >= PROFILE_IMAGE_MAX_BYTES) {
    ctx.addIssue({ code: "custom", message: `must be smaller than ${PROFILE_IMAGE_MAX_BYTES / 1024}KB` });
    return;
  }
  const image = parseImageDataUrl(value);
  if ("problem" in image) ctx.addIssue({ code: "custom", message: image.problem });
}

/** A project logo's address: any URL, where a `data:` URL is held to the rules of a profile image. */
export const logoUrlSchema = urlSchema.superRefine((value, ctx) => {
  if (isDataUrl(value)) checkImageDataUrl(value, ctx);
});

/**
 * An image's address as a server writes it: a URL, where a `data:` URL must
 * hold an image of a type taken (image-data-url.ts); the server stores that
 * image and answers with the address it serves it at.
 */
export const profileImageUrlSchema = imageUrlString
  .refine(isValidUrl, { message: "is not a valid URL", abort: true })
  .superRefine((value, ctx) => {
    if (isDataUrl(value)) checkImageDataUrl(value, ctx);
  })
  .nullable();

/**
 * What a client may set as its user's picture: the image itself, as a
 * `data:` URL (or null). An address elsewhere would have every page that
 * shows the user fetch whatever that address serves, when its owner likes.
 */
export const clientProfileImageUrlSchema = imageUrlString.superRefine(checkImageDataUrl).nullable();

/** Any JSON value; metadata objects must survive a JSON round trip. */
export const jsonValueSchema: z.ZodType<unknown> = z.unknown().refine(
  (v) => {
    try {
      return v === undefined || JSON.stringify(v) !== undefined;
    } catch {
      return false;
    }
  },
  { message: "must be JSON-serializable" },
);

/** Metadata: any JSON value, validated in full. */
export const metadataSchema = z.json();

export function isValidBase64(value: string): boolean {
  return /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(value);
}
export const base64Schema = z.string().refine(isValidBase64, { message: "is not valid base64" });

/**
 * A TOTP secret: RFC 4226 asks for at least 128 bits. A shorter one (an
 * empty array sent by mistake, say) would turn two-factor on with a secret
 * no authenticator app can use, locking the user out.
 */
export const totpSecretBase64Schema = base64Schema.refine(
  (value) => (value.length / 4) * 3 - (value.match(/=+$/)?.[0].length ?? 0) >= TOTP_SECRET_MIN_BYTES,
  {
    message: `must be a TOTP secret of at least ${TOTP_SECRET_MIN_BYTES} bytes`,
  },
);

/**
 * An imported password hash. Its algorithm and form are checked where it is
 * stored; here, only the bcrypt cost (`$2b$<cost>$…`), bounded so that a
 * single sign-in attempt cannot tie up the server.
 */
export const passwordHashSchema = z.string().refine(
  (value) => {
    const cost = /^\$2[aby]\$(\d{2})\$/.exec(value)?.[1];
    return cost === undefined || Number(cost) <= BCRYPT_MAX_COST;
  },
  { message: `must be a bcrypt hash of cost at most ${BCRYPT_MAX_COST}` },
);

/**
 * Trusted-domain patterns: http(s) only, '*' allowed in the host alone, no
 * leading/trailing dot or '..' in the host.
 */
export function isValidDomainPattern(pattern: string): boolean {
  const match = /^(https?):\/\/([^/?#]*)(.*)$/.exec(pattern);
  if (!match) return false;
  const [, , authority, rest] = match as unknown as [string, string, string, string];
  if (authority.includes("@")) return false;
  if (rest.includes("*")) return false;
  const host = authority.replace(/:\d+$/, "");
  if (!host || host.startsWith(".") || host.endsWith(".") || host.includes("..")) return false;
  const probe = authority.replaceAll("*", "wildcard");
  return isValidUrl(`${match[1]}://${probe}${rest}`);
}

export const domainPatternSchema = z.string().refine(isValidDomainPattern, {
  message: "is not a valid trusted domain: use http(s)://host, with '*' wildcards only in the host",
});
