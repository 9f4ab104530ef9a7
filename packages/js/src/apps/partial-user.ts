/**
 * Who is signed in, without asking the server: read from the claims of the
 * session's access token (or from a Convex function's identity, whose
 * claims are the same token's). Good for a quick signed-in check or a
 * greeting; anything that must be current or trusted reads the user.
 */
import type { User } from "../models/user-fields.ts";
import { accessTokenExpiresAt, decodeAccessToken } from "../session/access-token.ts";
import type { Session } from "../session/session.ts";
import type { TokenStoreInit } from "../session/token-store.ts";

export type TokenPartialUser = Pick<
  User,
  | "id"
  | "displayName"
  | "primaryEmail"
  | "primaryEmailVerified"
  | "isAnonymous"
  | "isMultiFactorRequired"
  | "isRestricted"
  | "restrictedReason"
>;

/** A Convex query, mutation or action context, as far as it is read here. */
export interface ConvexCtx {
  auth: { getUserIdentity(): Promise<Record<string, unknown> | null> };
}

/** Anonymous users count only with `or: "anonymous-if-exists"`. */
export type GetPartialUserOptions = { or?: "return-null" | "anonymous-if-exists" } & (
  { from: "token"; tokenStore?: TokenStoreInit } | { from: "convex"; ctx: ConvexCtx }
);

/** The user of the session's access token while it is unexpired (no refresh: that would be a request). */
export function partialUserOfSession(session: Session, options: GetPartialUserOptions, now = Date.now()): TokenPartialUser | null {
  const token = session.tokens.accessToken;
  if (token === null || accessTokenExpiresAt(token) <= now) return null;
  const claims = decodeAccessToken(token);
  if (!claims) return null;
  return partialUserOf({ ...claims, subject: claims.sub }, options);
}

export async function partialUserOfConvex(ctx: ConvexCtx, options: GetPartialUserOptions): Promise<TokenPartialUser | null> {
  const identity = await ctx.auth.getUserIdentity();
  return identity && partialUserOf(identity, options);
}

function partialUserOf(claims: Record<string, unknown>, options: GetPartialUserOptions): TokenPartialUser | null {
  const isAnonymous = claims.is_anonymous === true;
  if (isAnonymous && options.or !== "anonymous-if-exists") return null;
  const text = (value: unknown) => (typeof value === "string" ? value : null);
  return {
    id: String(claims.subject),
    displayName: text(claims.name),
    primaryEmail: text(claims.email),
    primaryEmailVerified: claims.email_verified === true,
    isAnonymous,
    isMultiFactorRequired: claims.requires_totp_mfa === true,
    isRestricted: claims.is_restricted === true,
    restrictedReason: (claims.restricted_reason as { type: string } | null | undefined) ?? null,
  };
}
