/**
 * Request shapes of the contact-channel endpoints (WIRE §2.3). Clients may not
 * set is_verified: only proving access to the mailbox (or a server) does.
 */
import { emailSchema, userIdOrMeSchema, uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import type { ChannelPatch, NewChannel } from "./channels.ts";

const type = z.enum(["email"]);

const clientCreateShape = {
  user_id: userIdOrMeSchema,
  type,
  value: emailSchema,
  used_for_auth: z.boolean(),
  is_primary: z.boolean().optional(),
};
export const clientChannelCreate = z.object(clientCreateShape).strict();
export const serverChannelCreate = z.object({ ...clientCreateShape, is_verified: z.boolean().optional() }).strict();

const clientPatchShape = {
  value: emailSchema.optional(),
  used_for_auth: z.boolean().optional(),
  is_primary: z.boolean().optional(),
};
export const clientChannelPatch = z.object(clientPatchShape).strict();
export const serverChannelPatch = z.object({ ...clientPatchShape, is_verified: z.boolean().optional() }).strict();

export const channelParams = z.object({ user_id: userIdOrMeSchema, contact_channel_id: uuidSchema });

type CreateBody = z.output<typeof serverChannelCreate>;
type PatchBody = z.output<typeof serverChannelPatch>;

export function toNewChannel(body: CreateBody): NewChannel {
  return {
    value: body.value,
    usedForAuth: body.used_for_auth,
    isPrimary: body.is_primary ?? false,
    isVerified: body.is_verified ?? false,
  };
}

export function toChannelPatch(body: PatchBody): ChannelPatch {
  const patch: ChannelPatch = {};
  if (body.value !== undefined) patch.value = body.value;
  if (body.used_for_auth !== undefined) patch.usedForAuth = body.used_for_auth;
  if (body.is_primary !== undefined) patch.isPrimary = body.is_primary;
  if (body.is_verified !== undefined) patch.isVerified = body.is_verified;
  return patch;
}
