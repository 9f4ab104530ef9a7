import { desc, eq } from "drizzle-orm";
import { sentEmails } from "../../db/schema/index.ts";
import { sentEmailView } from "../../domain/emails/views.ts";
import { defineRoute } from "../../http/route.ts";

/** Newest first; the last 500 are enough for the dashboard's list. */
const LIST_LIMIT = 500;

export default [
  defineRoute({
    method: "GET",
    path: "/internal/emails",
    summary: "The project's sent e-mails, newest first, with delivery errors",
    tags: ["Emails"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      const rows = await services.db
        .select()
        .from(sentEmails)
        .where(eq(sentEmails.projectId, auth.project.id))
        .orderBy(desc(sentEmails.createdAt))
        .limit(LIST_LIMIT);
      return { body: { items: rows.map(sentEmailView), is_paginated: false } };
    },
  }),
];
