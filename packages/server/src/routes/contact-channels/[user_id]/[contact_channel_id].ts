import { channelView, deleteChannel, requireUserChannel, updateChannel } from "../../../domain/contact-channels/channels.ts";
import { channelParams, clientChannelPatch, serverChannelPatch, toChannelPatch } from "../../../domain/contact-channels/schemas.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute({
    method: "GET",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Get one of a user's contact channels",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    params: channelParams,
    handler: async ({ auth, params, services }) => {
      const userId = resolveUserId(auth, params.user_id);
      const tenancy = tenancyOf(auth);
      return { body: channelView(await requireUserChannel(services.db, tenancy, userId, params.contact_channel_id)) };
    },
  }),
  defineRoute({
    method: "PATCH",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Update a contact channel (a new address is unverified)",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    params: channelParams,
    body: serverChannelPatch,
    clientBody: clientChannelPatch,
    handler: async ({ auth, params, body, services }) => {
      const userId = resolveUserId(auth, params.user_id);
      const tenancy = tenancyOf(auth);
      const row = await services.db.transaction(async (tx) => {
        const channel = await requireUserChannel(tx, tenancy, userId, params.contact_channel_id, true);
        return updateChannel(tx, services.bus, tenancy, channel, toChannelPatch(body));
      });
      return { body: channelView(row) };
    },
  }),
  defineRoute({
    method: "DELETE",
    path: "/contact-channels/:user_id/:contact_channel_id",
    summary: "Remove a contact channel",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    params: channelParams,
    handler: async ({ auth, params, services }) => {
      const userId = resolveUserId(auth, params.user_id);
      const tenancy = tenancyOf(auth);
      await services.db.transaction(async (tx) => {
        const channel = await requireUserChannel(tx, tenancy, userId, params.contact_channel_id, true);
        await deleteChannel(tx, services.bus, tenancy, channel);
      });
      return { body: { success: true } };
    },
  }),
];
