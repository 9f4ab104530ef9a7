import { internalEmailsEndpoints, listOf } from "@latchkey/shared";
import { recentSentEmails } from "../../domain/emails/recent.ts";
import { sentEmailView } from "../../domain/emails/views.ts";
import { defineRoute } from "../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.listSentEmails, async ({ auth, services }) => {
    const rows = await recentSentEmails(services.db, auth.project.id);
    return { body: listOf(rows.map(sentEmailView)) };
  }),
];
