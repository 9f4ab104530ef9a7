import { contactChannelsEndpoints, listOf } from "@latchkey/shared";
import { channelView, createChannel, listChannels, requireUser } from "../../domain/contact-channels/channels.ts";
import { toNewChannel } from "../../domain/contact-channels/from-body.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute(contactChannelsEndpoints.createContactChannel, async ({ auth, body, services }) => {
    const userId = resolveUserId(auth, body.user_id);
    const tenancy = tenancyOf(auth);
    const row = await createChannel(services.db, services.events, tenancy, userId, toNewChannel(body));
    return { body: channelView(row) };
  }),
  defineRoute(contactChannelsEndpoints.listContactChannels, async ({ auth, query, services }) => {
    const userId = resolveUserId(auth, query.user_id);
    const tenancy = tenancyOf(auth);
    await requireUser(services.db, tenancy, userId);
    const rows = await listChannels(services.db, tenancy, userId);
    return { body: listOf(rows.map(channelView)) };
  }),
];
