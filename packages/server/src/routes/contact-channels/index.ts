import { userIdOrMeSchema } from "@latchkey/shared";
import { z } from "zod";
import { channelView, createChannel, listChannels, requireUser } from "../../domain/contact-channels/channels.ts";
import { clientChannelCreate, serverChannelCreate, toNewChannel } from "../../domain/contact-channels/schemas.ts";
import { defineRoute } from "../../http/route.ts";
import { resolveUserId } from "../../http/user-target.ts";
import { tenancyOf } from "../../http/auth.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/contact-channels",
    summary: "Add an e-mail address to a user",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    body: serverChannelCreate,
    clientBody: clientChannelCreate,
    status: 201,
    handler: async ({ auth, body, services }) => {
      const userId = resolveUserId(auth, body.user_id);
      const tenancy = tenancyOf(auth);
      const row = await services.db.transaction(async (tx) => {
        await requireUser(tx, tenancy, userId, true);
        return createChannel(tx, services.bus, tenancy, userId, toNewChannel(body));
      });
      return { status: 201, body: channelView(row) };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/contact-channels",
    summary: "List a user's contact channels, primary first",
    tags: ["Contact channels"],
    access: ["client", "server", "admin"],
    query: z.object({ user_id: userIdOrMeSchema }).strict(),
    handler: async ({ auth, query, services }) => {
      const userId = resolveUserId(auth, query.user_id);
      const tenancy = tenancyOf(auth);
      await requireUser(services.db, tenancy, userId);
      const rows = await listChannels(services.db, tenancy, userId);
      return { body: { items: rows.map(channelView), is_paginated: false } };
    },
  }),
];
