/** Request shapes for user writes (WIRE §2.1), client and server. */
import {
  PASSWORD_MAX_LENGTH,
  base64Schema,
  displayNameSchema,
  emailSchema,
  metadataSchema,
  profileImageUrlSchema,
  uuidSchema,
} from "@latchkey/shared";
import { z } from "zod";
import type { UserPatch } from "./update.ts";

export const clientUserPatchFields = {
  display_name: displayNameSchema.optional(),
  profile_image_url: profileImageUrlSchema.optional(),
  client_metadata: metadataSchema.optional(),
  selected_team_id: uuidSchema.nullable().optional(),
  totp_secret_base64: base64Schema.nullable().optional(),
  otp_auth_enabled: z.boolean().optional(),
  passkey_auth_enabled: z.boolean().optional(),
  primary_email: emailSchema.nullable().optional(),
};

export const serverUserPatchFields = {
  ...clientUserPatchFields,
  client_read_only_metadata: metadataSchema.optional(),
  server_metadata: metadataSchema.optional(),
  primary_email_verified: z.boolean().optional(),
  primary_email_auth_enabled: z.boolean().optional(),
  password: z.string().max(PASSWORD_MAX_LENGTH).nullable().optional(),
  password_hash: z.string().optional(),
  is_anonymous: z.boolean().optional(),
  restricted_by_admin: z.boolean().optional(),
  restricted_by_admin_reason: z.string().nullable().optional(),
  restricted_by_admin_private_details: z.string().nullable().optional(),
  country_code: z.string().length(2).nullable().optional(),
};

export const clientUserPatch = z.object(clientUserPatchFields).strict();
export const serverUserPatch = z.object(serverUserPatchFields).strict();
export const serverUserCreate = z
  .object({
    ...serverUserPatchFields,
    oauth_providers: z
      .array(z.object({ id: z.string(), account_id: z.string(), email: emailSchema.nullable().optional() }).strict())
      .optional(),
  })
  .strict();

type ServerPatchBody = z.output<typeof serverUserPatch>;

/** Maps wire names to the domain patch; passwords are hashed by the caller. */
export function toUserPatch(body: Partial<ServerPatchBody>): UserPatch {
  const patch: UserPatch = {};
  const map: [keyof ServerPatchBody, keyof UserPatch][] = [
    ["display_name", "displayName"],
    ["profile_image_url", "profileImageUrl"],
    ["client_metadata", "clientMetadata"],
    ["client_read_only_metadata", "clientReadOnlyMetadata"],
    ["server_metadata", "serverMetadata"],
    ["selected_team_id", "selectedTeamId"],
    ["totp_secret_base64", "totpSecretBase64"],
    ["otp_auth_enabled", "otpAuthEnabled"],
    ["passkey_auth_enabled", "passkeyAuthEnabled"],
    ["primary_email", "primaryEmail"],
    ["primary_email_verified", "primaryEmailVerified"],
    ["primary_email_auth_enabled", "primaryEmailAuthEnabled"],
    ["is_anonymous", "isAnonymous"],
    ["restricted_by_admin", "restrictedByAdmin"],
    ["restricted_by_admin_reason", "restrictedByAdminReason"],
    ["restricted_by_admin_private_details", "restrictedByAdminPrivateDetails"],
    ["country_code", "countryCode"],
  ];
  for (const [wire, domain] of map) {
    if (body[wire] !== undefined) (patch as Record<string, unknown>)[domain] = body[wire];
  }
  return patch;
}
