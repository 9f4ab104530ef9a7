import { channelView, deleteChannel, requireChannel, requireUser, updateChannel } from "../../../domain/contact-channels/channels.ts";
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
      await requireUser(services.db, tenancy, userId);
      return { body: channelView(await requireChannel(services.db, tenancy, userId, params.contact_channel_id)) };
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
        await requireUser(tx, tenancy, userId, true);
        const channel = await requireChannel(tx, tenancy, userId, params.contact_channel_id);
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
        await requireUser(tx, tenancy, userId, true);
        const channel = await requireChannel(tx, tenancy, userId, params.contact_channel_id);
        await deleteChannel(tx, services.bus, tenancy, channel);
      });
      return { body: { success: true } };
    },
  }),
];
