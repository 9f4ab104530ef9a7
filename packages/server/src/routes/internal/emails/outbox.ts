import { internalEmailsEndpoints, listOf } from "@latchkey/shared";
import { outboxEmails } from "../../../domain/emails/outbox.ts";
import { outboxEmailView } from "../../../domain/emails/views.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute(internalEmailsEndpoints.listOutboxEmails, async ({ auth, services }) => {
    const rows = await outboxEmails(services.db, auth.project.id, services.clock.date());
    return { body: listOf(rows.map(outboxEmailView)) };
  }),
];
