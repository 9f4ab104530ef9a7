/**
 * A contact-channel write as the domain takes it, from the wire bodies of
 * @latchkey/shared (`serverContactChannelCreateBody`, `…PatchBody`; a
 * client's bodies are these less is_verified).
 */
import { camelCaseKeys, type ServerContactChannelCreate, type ServerContactChannelPatch } from "@latchkey/shared";
import type { ChannelPatch, NewChannel } from "./channels.ts";

export function toNewChannel(body: ServerContactChannelCreate): NewChannel {
  return {
    value: body.value,
    usedForAuth: body.used_for_auth,
    isPrimary: body.is_primary ?? false,
    isVerified: body.is_verified ?? false,
  };
}

/** The body's fields in camelCase; the patch schema is the only list of them. */
export function toChannelPatch(body: ServerContactChannelPatch): ChannelPatch {
  return camelCaseKeys(body);
}
