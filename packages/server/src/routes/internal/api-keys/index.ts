import { z } from "zod";
import { createKeySet, keySetView, listKeySets, newProjectKey, type ProjectKeyKind } from "../../../domain/api-keys/project-keys.ts";
import { StatusError } from "../../../http/errors.ts";
import { defineRoute } from "../../../http/route.ts";

export default [
  defineRoute({
    method: "POST",
    path: "/internal/api-keys",
    summary: "Create project keys; their full values are shown only in this response",
    tags: ["API keys"],
    access: ["admin"],
    body: z
      .object({
        description: z.string().max(1000),
        expires_at_millis: z.number().int().min(0),
        has_publishable_client_key: z.boolean(),
        has_secret_server_key: z.boolean(),
        has_super_secret_admin_key: z.boolean(),
      })
      .strict(),
    handler: async ({ auth, body, services }) => {
      const kinds = (
        [
          ["publishable_client_key", body.has_publishable_client_key],
          ["secret_server_key", body.has_secret_server_key],
          ["super_secret_admin_key", body.has_super_secret_admin_key],
        ] as [ProjectKeyKind, boolean][]
      )
        .filter(([, wanted]) => wanted)
        .map(([kind]) => kind);
      if (kinds.length === 0) throw new StatusError(400, "Ask for at least one key: set one of the has_*_key fields to true.");
      if (body.expires_at_millis <= Date.now()) throw new StatusError(400, "expires_at_millis must be in the future.");
      const values = Object.fromEntries(kinds.map((kind) => [kind, newProjectKey(kind)]));
      const row = await createKeySet(services.db, {
        projectId: auth.project.id,
        description: body.description,
        expiresAt: new Date(body.expires_at_millis),
        values,
      });
      return {
        body: {
          created_at_millis: row.createdAt.getTime(),
          description: row.description,
          expires_at_millis: body.expires_at_millis,
          id: row.id,
          ...values,
        },
      };
    },
  }),
  defineRoute({
    method: "GET",
    path: "/internal/api-keys",
    summary: "List the project's keys, newest first (last four characters only)",
    tags: ["API keys"],
    access: ["admin"],
    handler: async ({ auth, services }) => {
      const rows = await listKeySets(services.db, auth.project.id);
      return { body: { items: rows.map(keySetView), is_paginated: false } };
    },
  }),
];
