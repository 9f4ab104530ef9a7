import { SUCCESS, contactChannelsEndpoints } from "@latchkey/shared";
import { channelView, deleteChannel, requireUserChannel, updateChannel } from "../../../domain/contact-channels/channels.ts";
import { toChannelPatch } from "../../../domain/contact-channels/from-body.ts";
import { defineRoute } from "../../../http/route.ts";
import { resolveUserId } from "../../../http/user-target.ts";
import { tenancyOf } from "../../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.getContactChannel, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const tenancy = tenancyOf(auth);
    return { body: channelView(await requireUserChannel(services.db, tenancy, userId, params.contact_channel_id)) };
  }),
  defineRoute(contactChannelsEndpoints.updateContactChannel, async ({ auth, params, body, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const tenancy = tenancyOf(auth);
    const row = await updateChannel(services.db, services.events, tenancy, userId, params.contact_channel_id, toChannelPatch(body));
    return { body: channelView(row) };
  }),
  defineRoute(contactChannelsEndpoints.deleteContactChannel, async ({ auth, params, services }) => {
    const userId = resolveUserId(auth, params.user_id);
    const tenancy = tenancyOf(auth);
    await deleteChannel(services.db, services.events, tenancy, userId, params.contact_channel_id);
    return { body: SUCCESS };
  }),
];
