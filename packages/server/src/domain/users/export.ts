/**
 * The users a list's filters select, written out as CSV or JSON while they are
 * read: batches follow each other by keyset (the last row's order value and
 * id), so an export of any size holds one batch in memory at a time.
 */
import type { ServerUserJson } from "@latchkey/shared";
import { and } from "drizzle-orm";
import type { DbOrTx } from "../../db/connect.ts";
import type { ProjectConfig } from "../projects/config.ts";
import { relativeTo, userListConditions, userListOrder, withPlansPerSearch, type UserListFilters } from "./list.ts";
import { toUserRecord, userRecordQuery } from "./record.ts";
import { serverUserView } from "./views.ts";

export type ExportFormat = "csv" | "json";

const BATCH_SIZE = 500;

const CSV_COLUMNS = [
  "id",
  "display_name",
  "primary_email",
  "primary_email_verified",
  "is_anonymous",
  "signed_up_at",
  "last_active_at",
  "sign_in_methods",
] as const;

export const EXPORT_CONTENT_TYPES: Record<ExportFormat, string> = {
  csv: "text/csv; charset=utf-8",
  json: "application/json; charset=utf-8",
};

/** How a user signs in, as the list shows it: password, otp, passkey and each OAuth provider's id. */
export function signInMethods(user: ServerUserJson): string[] {
  const methods: string[] = [];
  if (user.has_password) methods.push("password");
  if (user.otp_auth_enabled) methods.push("otp");
  if (user.passkey_auth_enabled) methods.push("passkey");
  for (const provider of user.oauth_providers) methods.push(provider.id);
  return methods;
}

/**
 * Display names are written by end users, and the owner opens this file in a spreadsheet: a cell starting with
 * =, +, -, @, tab or carriage return would run as a formula there, so such text gets a leading apostrophe (shown as text).
 */
function csvField(value: string | number | boolean | null): string {
  const raw = value === null ? "" : String(value);
  const text = typeof value === "string" && /^[=+\-@\t\r]/.test(raw) ? `'${raw}` : raw;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function csvRow(user: ServerUserJson): string {
  const fields = [
    user.id,
    user.display_name,
    user.primary_email,
    user.primary_email_verified,
    user.is_anonymous,
    new Date(user.signed_up_at_millis).toISOString(),
    new Date(user.last_active_at_millis).toISOString(),
    signInMethods(user).join(" "),
  ];
  return `${fields.map(csvField).join(",")}\r\n`;
}

async function* userBatches(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  config: ProjectConfig,
  filters: UserListFilters,
): AsyncGenerator<ServerUserJson[]> {
  let lastId: string | null = null;
  const filterConditions = await userListConditions(db, projectId, branchId, filters);
  for (;;) {
    const conditions = [...filterConditions];
    if (lastId !== null) conditions.push(relativeTo(projectId, branchId, filters, lastId, "after"));
    const batch = (reader: DbOrTx) =>
      userRecordQuery(reader)
        .where(and(...conditions))
        .orderBy(...userListOrder(filters))
        .limit(BATCH_SIZE);
    // A search's batches are planned for its text (see withPlansPerSearch), as its pages are.
    const rows = filters.search?.trim() ? await withPlansPerSearch(db, (tx) => batch(tx).execute()) : await batch(db);
    if (rows.length === 0) return;
    yield rows.map((row) => serverUserView(toUserRecord(row), config));
    if (rows.length < BATCH_SIZE) return;
    lastId = rows[rows.length - 1]!.user.id;
  }
}

/** The export as a byte stream: each pull reads and writes one batch. */
export function exportUsers(
  db: DbOrTx,
  projectId: string,
  branchId: string,
  config: ProjectConfig,
  filters: UserListFilters,
  format: ExportFormat,
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  const batches = userBatches(db, projectId, branchId, config, filters);
  let started = false;
  let first = true;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(format === "csv" ? `${CSV_COLUMNS.join(",")}\r\n` : "["));
        return;
      }
      const next = await batches.next();
      if (next.done) {
        if (format === "json") controller.enqueue(encoder.encode("]"));
        controller.close();
        return;
      }
      const text =
        format === "csv"
          ? next.value.map(csvRow).join("")
          : next.value.map((user, i) => `${first && i === 0 ? "" : ","}${JSON.stringify(user)}`).join("");
      first = false;
      controller.enqueue(encoder.encode(text));
    },
    async cancel() {
      await batches.return(undefined);
    },
  });
}
