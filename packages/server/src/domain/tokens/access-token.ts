/**
 * Access tokens: short-lived ES256 JWTs with the claims of AccessTokenClaims. The
 * issuer and audience name the project and the kind of user (regular,
 * restricted, anonymous), each kind signed by its own keys.
 */
import { KnownErrors } from "@latchkey/shared";
import { LRUCache } from "lru-cache";
import { sign, verify } from "node:crypto";
import type { JWTPayload } from "jose";
import type { AudienceKind, KeyStore } from "./signing-keys.ts";
import type { Clock } from "../../lib/clock.ts";
import type { Tenancy } from "../../db/tenancy.ts";

export interface AccessTokenClaims extends JWTPayload {
  sub: string;
  iat: number;
  exp: number;
  iss: string;
  aud: string;
  project_id: string;
  branch_id: string;
  refresh_token_id: string;
  role: "authenticated";
  name: string | null;
  email: string | null;
  email_verified: boolean;
  selected_team_id: string | null;
  signed_up_at: number;
  is_anonymous: boolean;
  is_restricted: boolean;
  restricted_reason: { type: string } | null;
  requires_totp_mfa: boolean;
}

export interface TokenSubject extends Tenancy {
  userId: string;
  sessionId: string;
  displayName: string | null;
  primaryEmail: string | null;
  primaryEmailVerified: boolean;
  selectedTeamId: string | null;
  signedUpAt: Date;
  isAnonymous: boolean;
  restrictedReason: { type: string } | null;
  requiresTotpMfa: boolean;
}

export function audienceKindOf(subject: Pick<TokenSubject, "isAnonymous" | "restrictedReason">): AudienceKind {
  if (subject.isAnonymous) return "anonymous";
  return subject.restrictedReason ? "restricted" : "regular";
}

const ISSUER_PATH: Record<AudienceKind, string> = {
  regular: "projects",
  restricted: "projects-restricted-users",
  anonymous: "projects-anonymous-users",
};
const AUDIENCE_SUFFIX: Record<AudienceKind, string> = { regular: "", restricted: ":restricted", anonymous: ":anon" };

/** 16 base64url characters of the signature: over 90 random bits (the last character carries 2). */
const LOOKUP_TAIL = 16;

/** Bounds the memory of `recent` (tokens of one second) under a burst of distinct sessions. */
const RECENT_MAX = 20_000;

export class AccessTokens {
  constructor(
    private readonly keys: KeyStore,
    private readonly apiUrl: string,
    readonly lifetimeMillis: number,
    /** Issue and expiry times (lib/clock.ts). */
    private readonly clock: Clock,
  ) {}

  /** Synchronous (node:crypto): a refresh whose session and user are cached never waits. */
  issue(subject: TokenSubject): string {
    const kind = audienceKindOf(subject);
    const { kid, key } = this.keys.signingKey(kind);
    const nowSeconds = Math.floor(this.clock.now() / 1000);
    if (nowSeconds !== this.recentSecond) {
      this.recent.clear();
      this.recentSecond = nowSeconds;
    }
    const recent = this.recent.get(subject.sessionId);
    if (recent !== undefined && recent.kid === kid && sameClaims(recent.subject, subject)) return recent.token;

    const payload: AccessTokenClaims = {
      project_id: subject.projectId,
      branch_id: subject.branchId,
      refresh_token_id: subject.sessionId,
      role: "authenticated",
      name: subject.displayName,
      email: subject.primaryEmail,
      email_verified: subject.primaryEmailVerified,
      selected_team_id: subject.selectedTeamId,
      signed_up_at: Math.floor(subject.signedUpAt.getTime() / 1000),
      is_anonymous: subject.isAnonymous,
      is_restricted: kind !== "regular",
      restricted_reason: subject.restrictedReason,
      requires_totp_mfa: subject.requiresTotpMfa,
      sub: subject.userId,
      iat: nowSeconds,
      exp: nowSeconds + Math.max(1, Math.round(this.lifetimeMillis / 1000)),
      iss: `${this.apiUrl}/api/v1/${ISSUER_PATH[kind]}/${subject.projectId}`,
      aud: `${subject.projectId}${AUDIENCE_SUFFIX[kind]}`,
    };
    // JWS compact serialization signed with node:crypto directly: five times
    // faster than signing through WebCrypto, and issuing a token is the bulk
    // of a refresh. Verification (jose, and every verifier using our JWKS)
    // is unaffected; the tests verify every kind of token with jose.
    const signingInput = `${this.encodedHeader(kid)}.${base64url(payload)}`;
    // Base64url text is ASCII: latin1 is the cheapest exact encoding.
    const signature = sign("sha256", Buffer.from(signingInput, "latin1"), { key, dsaEncoding: "ieee-p1363" });
    const token = `${signingInput}.${signature.toString("base64url")}`;
    // A copy: the caller's object could change after this call.
    if (this.recent.size < RECENT_MAX) this.recent.set(subject.sessionId, { kid, subject: { ...subject }, token });
    return token;
  }

  /**
   * Tokens signed during the current second, by session. `iat` has
   * one-second resolution, so a second token for the same session, with the
   * same user state and key within that second, would carry exactly the same
   * claims: it is handed the one already signed (bursts of refreshes of one
   * session, e.g. several tabs at once) rather than paying for another
   * signature, or even for serializing the claims again.
   */
  private readonly recent = new Map<string, { kid: string; subject: TokenSubject; token: string }>();
  private recentSecond = 0;

  /** The encoded JWS header depends on the key id only. */
  private readonly headers = new Map<string, string>();
  private encodedHeader(kid: string): string {
    let header = this.headers.get(kid);
    if (header === undefined) this.headers.set(kid, (header = base64url({ alg: "ES256", kid })));
    return header;
  }

  /**
   * Verified tokens. A token cannot change, so its signature need only be
   * checked once; expiry is still checked every time. Entries are found by
   * the last characters of the signature (random, 96 bits), and a hit counts
   * only if the whole text is the same: the token arrives as a new string on
   * every request, and hashing all ~600 characters of it for the lookup was
   * the costliest step of a cached `/users/me`. A forged token that shares
   * the tail is a miss, is verified in full and fails, and replaces nothing.
   */
  private readonly verified = new LRUCache<string, { token: string; claims: AccessTokenClaims }>({ max: 50_000 });

  /** Synchronous (node:crypto), so a request whose data is cached never waits; throws the catalogue's errors. */
  verify(token: string): AccessTokenClaims {
    const tail = token.slice(-LOOKUP_TAIL);
    const known = this.verified.get(tail);
    if (known !== undefined && known.token === token) {
      if (known.claims.exp * 1000 > this.clock.now()) return known.claims;
      this.verified.delete(tail);
    }
    const claims = this.verifyUncached(token);
    this.verified.set(tail, { token, claims });
    return claims;
  }

  /**
   * ES256 JWS verification with node:crypto, synchronously: it never queues
   * on the libuv pool behind password hashes, which under a sign-in burst
   * made first uses of tokens wait for seconds. Checks, in order: shape,
   * known key, signature over the exact text, then the claims.
   */
  private verifyUncached(token: string): AccessTokenClaims {
    const parts = token.split(".");
    if (parts.length !== 3 || !parts.every((part) => BASE64URL.test(part))) throw new KnownErrors.UnparsableAccessToken();
    const [encodedHeader, encodedPayload, encodedSignature] = parts as [string, string, string];
    const header = parseJsonObject(encodedHeader);
    const entry = typeof header?.kid === "string" ? this.keys.verificationKey(header.kid) : undefined;
    if (!header || header.alg !== "ES256" || !entry) throw new KnownErrors.UnparsableAccessToken();
    const signature = Buffer.from(encodedSignature, "base64url");
    const signed = Buffer.from(`${encodedHeader}.${encodedPayload}`);
    if (signature.length !== 64 || !verify("sha256", signed, { key: entry.key, dsaEncoding: "ieee-p1363" }, signature)) {
      throw new KnownErrors.UnparsableAccessToken();
    }
    const claims = parseJsonObject(encodedPayload) as AccessTokenClaims | null;
    if (!claims || typeof claims.exp !== "number") throw new KnownErrors.UnparsableAccessToken();
    if (claims.exp * 1000 <= this.clock.now()) {
      throw new KnownErrors.AccessTokenExpired(
        new Date(claims.exp * 1000),
        claims.project_id ?? null,
        claims.sub ?? null,
        claims.refresh_token_id ?? null,
      );
    }
    const projectId = claims.project_id;
    if (typeof projectId !== "string" || typeof claims.sub !== "string" || claims.aud !== `${projectId}${AUDIENCE_SUFFIX[entry.kind]}`) {
      throw new KnownErrors.UnparsableAccessToken();
    }
    const issuerPath = `/api/v1/${ISSUER_PATH[entry.kind]}/${projectId}`;
    if (claims.iss !== this.apiUrl + issuerPath) throw new KnownErrors.UnparsableAccessToken(this.otherIssuer(claims.iss, issuerPath));
    return claims;
  }

  /**
   * The issuer's address, when a token signed with this server's keys names another one: a replica with another
   * LATCHKEY_API_URL issued it. Said as such, since "not a valid token" would hide a misconfigured deployment.
   */
  private otherIssuer(issuer: unknown, issuerPath: string): { expected: string; received: string } | undefined {
    if (typeof issuer !== "string" || !issuer.endsWith(issuerPath)) return undefined;
    const received = issuer.slice(0, -issuerPath.length);
    return /^https?:\/\/[^\s]+$/.test(received) ? { expected: this.apiUrl, received } : undefined;
  }
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

/**
 * Every field of a token's subject, for `sameClaims`: adding a field to
 * TokenSubject without listing it here does not compile.
 */
const SUBJECT_FIELDS = {
  userId: true,
  projectId: true,
  branchId: true,
  sessionId: true,
  displayName: true,
  primaryEmail: true,
  primaryEmailVerified: true,
  selectedTeamId: true,
  signedUpAt: true,
  isAnonymous: true,
  restrictedReason: true,
  requiresTotpMfa: true,
} as const satisfies Record<keyof TokenSubject, true>;
const SUBJECT_KEYS = Object.keys(SUBJECT_FIELDS) as (keyof TokenSubject)[];

/** Whether two subjects give the same claims (within one second, with one key). */
function sameClaims(a: TokenSubject, b: TokenSubject): boolean {
  for (const field of SUBJECT_KEYS) {
    const x = a[field];
    const y = b[field];
    if (x === y) continue;
    if (x instanceof Date && y instanceof Date && x.getTime() === y.getTime()) continue;
    if (field === "restrictedReason" && a.restrictedReason?.type === b.restrictedReason?.type) continue;
    return false;
  }
  return true;
}

function parseJsonObject(encoded: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(Buffer.from(encoded, "base64url").toString("utf8"));
    return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function base64url(value: unknown): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}
