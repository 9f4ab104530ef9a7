import { KnownErrors, uuidSchema } from "@latchkey/shared";
import { z } from "zod";
import { listUsers } from "../../domain/users/list.ts";
import { createUser } from "../../domain/users/create.ts";
import { passwordHashFromBody } from "../../domain/users/password-fields.ts";
import { serverUserCreate, toUserPatch } from "../../domain/users/schemas.ts";
import { serverUserView } from "../../domain/users/views.ts";
import { StatusError } from "../../http/errors.ts";
import { defineRoute } from "../../http/route.ts";

const booleanString = z.enum(["true", "false"]).transform((v) => v === "true");

export default [
  defineRoute({
    method: "GET",
    path: "/users",
    summary: "List users, ascending by sign-up time unless desc=true",
    tags: ["Users"],
    access: ["server", "admin"],
    query: z
      .object({
        cursor: uuidSchema.optional(),
        limit: z.coerce.number().int().min(1).max(1000).optional(),
        desc: booleanString.optional(),
        order_by: z.enum(["signed_up_at"]).optional(),
        query: z.string().optional(),
        include_anonymous: booleanString.optional(),
        team_id: uuidSchema.optional(),
      })
      .strict(),
    handler: async ({ auth, query, services }) => {
      const page = await listUsers(services.db, auth.project.id, auth.branchId, {
        cursor: query.cursor ?? null,
        limit: query.limit ?? null,
        desc: query.desc ?? false,
        search: query.query ?? null,
        includeAnonymous: query.include_anonymous ?? false,
        teamId: query.team_id ?? null,
      });
      return {
        body: {
          items: page.items.map((u) => serverUserView(u, auth.project.config)),
          is_paginated: true,
          pagination: { next_cursor: page.nextCursor },
        },
      };
    },
  }),
  defineRoute({
    method: "POST",
    path: "/users",
    summary: "Create a user (server access can always create users)",
    tags: ["Users"],
    access: ["server", "admin"],
    body: serverUserCreate,
    status: 201,
    handler: async ({ auth, body, services }) => {
      if (body.oauth_providers && body.oauth_providers.length > 0) {
        throw new StatusError(400, "Linking OAuth accounts on user creation is not available yet on this server.");
      }
      if (body.primary_email_auth_enabled && !body.primary_email) {
        throw new StatusError(400, "primary_email_auth_enabled needs a primary_email.");
      }
      const passwordHash = await passwordHashFromBody(body);
      if (passwordHash && !body.primary_email) {
        throw new StatusError(400, "A password needs a primary_email to sign in with.");
      }
      const patch = toUserPatch(body);
      if (patch.selectedTeamId) throw new KnownErrors.TeamNotFound(patch.selectedTeamId);
      const user = await services.db.transaction((tx) =>
        createUser(tx, auth.project, auth.branchId, {
          ...patch,
          // A password implies the e-mail signs in, unless said otherwise.
          primaryEmailAuthEnabled: patch.primaryEmailAuthEnabled ?? Boolean(passwordHash),
          passwordHash: passwordHash ?? null,
        }),
      );
      return { status: 201, body: serverUserView(user, auth.project.config) };
    },
  }),
];
