/**
 * E-mail themes, templates and drafts (see @latchkey/shared
 * api/email-admin.ts): the admin CRUD with its exact shapes, access and
 * not-found rules, the built-in defaults (seeded once per project, edits
 * kept), previews, and the code mails that are rendered from the project's
 * templates through a real SMTP peer, falling back to the plain message when
 * an edited template fails.
 */
import { COLORFUL_EMAIL_THEME_ID, DARK_EMAIL_THEME_ID, DEFAULT_EMAIL_TEMPLATE_IDS, DEFAULT_EMAIL_THEME_ID } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailDrafts, emailTemplates, emailThemes, sentEmails } from "../src/db/schema/index.ts";
import { prepareCodeMail, saveCodeMail } from "../src/domain/codes/mail-code.ts";
import { DEFAULT_TEMPLATES, NEW_DRAFT_SOURCE, NEW_TEMPLATE_SOURCE } from "../src/domain/emails/templates/default-templates.ts";
import { LIGHT_THEME_SOURCE } from "../src/domain/emails/templates/default-themes.ts";
import { markDraftSent } from "../src/domain/emails/templates/store.ts";
import {
  PASSWORD,
  createProject,
  expectPlainError,
  expectSchemaError,
  patchProjectConfig,
  uniqueEmail,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { capturingLogger, expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, ownSmtpConfig, type MailingServer } from "./mail-fixtures.ts";

const BUILT_IN_TEMPLATE_IDS = Object.values(DEFAULT_EMAIL_TEMPLATE_IDS);

let mailing: MailingServer;
let server: TestServer;
/** Shared e-mail (the platform's SMTP server). */
let project: Project;
/** Its own SMTP server, so it may add templates. */
let custom: Project;

beforeAll(async () => {
  mailing = await createMailingTestServer();
  server = mailing.server;
  [project, custom] = await Promise.all([createProject(server), createProject(server)]);
  await patchProjectConfig(server, custom, { email_config: ownSmtp() });
});
afterAll(() => mailing?.close());

const db = () => server.instance.services.db;

/** A project that sends through its own SMTP server (the same test peer), so its edited templates go out. */
async function ownSmtpProject(): Promise<Project> {
  const p = await createProject(server);
  await patchProjectConfig(server, p, { email_config: ownSmtp() });
  return p;
}

const ownSmtp = () => ownSmtpConfig(mailing.smtp.port, { name: "Custom sender", email: "custom@example.com" });

const req = (method: string, path: string, as: Auth, body?: unknown) =>
  server.request(path, { method, as, ...(body !== undefined ? { body } : {}) });

async function ok(method: string, path: string, as: Auth, body?: unknown) {
  const res = await req(method, path, as, body);
  expect(res.status, res.text).toBe(200);
  return res.body;
}

/** A template module whose body shows `text`; `extra` is inserted as statements before it returns. */
function templateSource(text: string, opts: { subject?: string; extra?: string } = {}) {
  return `import * as React from "react";
import { Text } from "@react-email/components";
${opts.subject !== undefined ? `export const subject = ${JSON.stringify(opts.subject)};` : ""}
export function EmailTemplate({ variables }) {
  ${opts.extra ?? ""}
  return <Text>${text}</Text>;
}
`;
}

function themeSource(marker: string) {
  return `import * as React from "react";
import { Html, Body } from "@react-email/components";
export function EmailTheme({ children }) {
  return <Html><Body><p>${marker}</p>{children}</Body></Html>;
}
`;
}

const BROKEN_TSX = `export function EmailTemplate() { return <Text>unclosed; }`;
const THROWING_TSX = `export function EmailTemplate() { throw new Error("deliberately broken"); }`;

async function templates(p: Project) {
  return (await ok("GET", "/internal/email-templates", p.admin)).templates as Record<string, unknown>[];
}

describe("access", () => {
  const endpoints: [string, string, unknown?][] = [
    ["GET", "/internal/email-themes"],
    ["POST", "/internal/email-themes", { display_name: "x" }],
    ["GET", `/internal/email-themes/${DEFAULT_EMAIL_THEME_ID}`],
    ["PATCH", `/internal/email-themes/${DEFAULT_EMAIL_THEME_ID}`, { display_name: "x" }],
    ["GET", "/internal/email-templates"],
    ["POST", "/internal/email-templates", { display_name: "x" }],
    ["GET", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.password_reset}`],
    ["PATCH", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.password_reset}`, {}],
    ["DELETE", `/internal/email-templates/${UNKNOWN_UUID}`],
    ["GET", "/internal/email-drafts"],
    ["POST", "/internal/email-drafts", { display_name: "x" }],
    ["GET", `/internal/email-drafts/${UNKNOWN_UUID}`],
    ["PATCH", `/internal/email-drafts/${UNKNOWN_UUID}`, {}],
    ["DELETE", `/internal/email-drafts/${UNKNOWN_UUID}`],
    ["POST", "/emails/render-email", { template_id: DEFAULT_EMAIL_TEMPLATE_IDS.password_reset }],
  ];

  it("client and server → INSUFFICIENT_ACCESS_TYPE on every endpoint", async () => {
    for (const [method, path, body] of endpoints) {
      for (const as of [custom.client, custom.server]) {
        const res = await req(method, path, as, body);
        expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
        expect(res.body.details).toEqual({ actual_access_type: as.type, allowed_access_types: ["admin"] });
      }
    }
  });

  it("the owner's admin token works like the admin key", async () => {
    expect((await ok("GET", "/internal/email-themes", custom.ownerAdmin)).themes).toHaveLength(3);
  });
});

describe("built-in themes and templates", () => {
  it("every project has the three themes and the five templates under their fixed ids, seeded once however often they are read", async () => {
    const p = await createProject(server);
    // The first reads race each other: each seeds, none duplicates.
    const [themesRes, list] = await Promise.all([
      ok("GET", "/internal/email-themes", p.admin),
      templates(p),
      templates(p),
      ok("GET", "/internal/email-themes", p.admin),
    ]);
    expect(themesRes.themes).toEqual([
      { id: DEFAULT_EMAIL_THEME_ID, display_name: "Default Light" },
      { id: DARK_EMAIL_THEME_ID, display_name: "Default Dark" },
      { id: COLORFUL_EMAIL_THEME_ID, display_name: "Default Colorful" },
    ]);
    // The ids clients of the wire contract know.
    expect([DEFAULT_EMAIL_THEME_ID, DARK_EMAIL_THEME_ID, COLORFUL_EMAIL_THEME_ID]).toEqual([
      "1df07ae6-abf3-4a40-83a5-a1a2cbe336ac",
      "a0172b5d-cff0-463b-83bb-85124697373a",
      "c7e2d94f-8a1b-4e6d-b3f5-9d0a2e7c1b8f",
    ]);
    expect(DEFAULT_EMAIL_TEMPLATE_IDS).toEqual({
      email_verification: "e7d009ce-8d47-4528-b245-5bf119f2ffa3",
      password_reset: "a70fb3a4-56c1-4e42-af25-49d25603abd0",
      sign_in_code: "822687fe-8d0a-4467-a0d1-416b6e639478",
      team_invitation: "e84de395-2076-4831-9c19-8e9a96a868e4",
      sign_in_invitation: "066dd73c-36da-4fd0-b6d6-ebf87683f8bc",
    });
    expect(list.map((t) => t.id).sort()).toEqual([...BUILT_IN_TEMPLATE_IDS].sort());
    for (const t of list) {
      // The project's selected theme: theme_id is absent.
      expect(Object.keys(t)).toEqual(["id", "display_name", "tsx_source"]);
      const kind = (Object.keys(DEFAULT_EMAIL_TEMPLATE_IDS) as (keyof typeof DEFAULT_EMAIL_TEMPLATE_IDS)[]).find(
        (k) => DEFAULT_EMAIL_TEMPLATE_IDS[k] === t.id,
      )!;
      expect(t.tsx_source).toBe(DEFAULT_TEMPLATES[kind].tsxSource);
      expect(t.display_name).toBe(DEFAULT_TEMPLATES[kind].displayName);
    }
    await Promise.all([templates(p), templates(p), ok("GET", "/internal/email-themes", p.admin)]);
    const rows = await db().select().from(emailTemplates).where(eq(emailTemplates.projectId, p.id));
    expect(rows).toHaveLength(5);
    expect(await db().select().from(emailThemes).where(eq(emailThemes.projectId, p.id))).toHaveLength(3);
  });

  it("a project made before the defaults existed gets them on first read", async () => {
    const p = await createProject(server);
    await templates(p);
    await db().delete(emailTemplates).where(eq(emailTemplates.projectId, p.id));
    await db().delete(emailThemes).where(eq(emailThemes.projectId, p.id));
    const res = await ok("GET", `/internal/email-themes/${DARK_EMAIL_THEME_ID}`, p.admin);
    expect(Object.keys(res)).toEqual(["id", "display_name", "tsx_source"]);
    expect(res.display_name).toBe("Default Dark");
    expect(await templates(p)).toHaveLength(5);
  });

  it("an edited default stays edited", async () => {
    const p = await ownSmtpProject();
    const id = DEFAULT_EMAIL_TEMPLATE_IDS.password_reset;
    const source = templateSource("Edited reset text");
    await ok("PATCH", `/internal/email-templates/${id}`, p.admin, { tsx_source: source });
    await ok("PATCH", `/internal/email-themes/${DEFAULT_EMAIL_THEME_ID}`, p.admin, { display_name: "Renamed light" });
    for (let i = 0; i < 2; i++) {
      expect((await templates(p)).find((t) => t.id === id)?.tsx_source).toBe(source);
      const themes = (await ok("GET", "/internal/email-themes", p.admin)).themes;
      expect(themes).toContainEqual({ id: DEFAULT_EMAIL_THEME_ID, display_name: "Renamed light" });
    }
  });

  it("built-in templates cannot be deleted (400 plain text), and stay", async () => {
    const res = await req("DELETE", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code}`, custom.admin);
    expectPlainError(res, 400, /cannot be deleted/);
    expect((await templates(custom)).map((t) => t.id)).toContain(DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code);
  });
});

describe("/internal/email-themes", () => {
  it("POST → {id}; the new theme is a copy of the light default; GET, PATCH → {display_name}", async () => {
    const created = await ok("POST", "/internal/email-themes", project.admin, { display_name: "Brand" });
    expect(Object.keys(created)).toEqual(["id"]);
    const path = `/internal/email-themes/${created.id}`;
    expect(await ok("GET", path, project.admin)).toEqual({ id: created.id, display_name: "Brand", tsx_source: LIGHT_THEME_SOURCE });
    expect((await ok("GET", "/internal/email-themes", project.admin)).themes).toContainEqual({ id: created.id, display_name: "Brand" });

    expect(await ok("PATCH", path, project.admin, { display_name: "Brand 2" })).toEqual({ display_name: "Brand 2" });
    const source = themeSource("brand-theme-marker");
    expect(await ok("PATCH", path, project.admin, { tsx_source: source })).toEqual({ display_name: "Brand 2" });
    expect(await ok("GET", path, project.admin)).toEqual({ id: created.id, display_name: "Brand 2", tsx_source: source });
  });

  it("a theme that does not render → EMAIL_RENDERING_ERROR, nothing saved", async () => {
    const { id } = await ok("POST", "/internal/email-themes", project.admin, { display_name: "Fragile" });
    for (const tsx of [BROKEN_TSX, `export function EmailTheme() { throw new Error("theme broke"); }`]) {
      const res = await req("PATCH", `/internal/email-themes/${id}`, project.admin, { display_name: "Changed", tsx_source: tsx });
      expectKnownError(res, "EMAIL_RENDERING_ERROR", 400);
      expect(typeof res.body.details.error).toBe("string");
    }
    expect(await ok("GET", `/internal/email-themes/${id}`, project.admin)).toEqual({
      id,
      display_name: "Fragile",
      tsx_source: LIGHT_THEME_SOURCE,
    });
  });

  it("unknown ids and another project's themes → 404 plain text", async () => {
    const { id } = await ok("POST", "/internal/email-themes", custom.admin, { display_name: "Not yours" });
    for (const themeId of [UNKNOWN_UUID, id]) {
      expectPlainError(await req("GET", `/internal/email-themes/${themeId}`, project.admin), 404);
      expectPlainError(await req("PATCH", `/internal/email-themes/${themeId}`, project.admin, { display_name: "Mine" }), 404);
    }
    expect((await ok("GET", `/internal/email-themes/${id}`, custom.admin)).display_name).toBe("Not yours");
  });

  it("schema errors", async () => {
    expectSchemaError(await req("POST", "/internal/email-themes", project.admin, {}), "POST", "/internal/email-themes", [
      "body.display_name must be defined",
    ]);
    expectSchemaError(
      await req("POST", "/internal/email-themes", project.admin, { display_name: "", x: 1 }),
      "POST",
      "/internal/email-themes",
      ["body.display_name must not be empty", "body contains unknown properties: x"],
    );
    expectSchemaError(await req("POST", "/internal/email-themes", project.admin, { display_name: "" }), "POST", "/internal/email-themes", [
      "body.display_name must not be empty",
    ]);
    expectSchemaError(await req("GET", "/internal/email-themes/nope", project.admin), "GET", "/internal/email-themes/nope", [
      "params.theme_id must be a valid UUID",
    ]);
    const path = `/internal/email-themes/${DEFAULT_EMAIL_THEME_ID}`;
    expectSchemaError(await req("PATCH", path, project.admin, { tsx_source: 5 }), "PATCH", path, [
      "body.tsx_source must be a `string` type, but the final value was: `5`.",
    ]);
    expectSchemaError(await req("DELETE", "/internal/email-themes/nope", project.admin), "DELETE", "/internal/email-themes/nope", [
      "params.theme_id must be a valid UUID",
    ]);
  });

  it("DELETE → {success: true}; templates and drafts it framed take the selected theme", async () => {
    const p = await ownSmtpProject();
    const { id } = await ok("POST", "/internal/email-themes", p.admin, { display_name: "Seasonal" });
    const templateId = DEFAULT_EMAIL_TEMPLATE_IDS.password_reset;
    await ok("PATCH", `/internal/email-templates/${templateId}`, p.admin, { theme_id: id });
    const { id: draftId } = await ok("POST", "/internal/email-drafts", p.admin, { display_name: "Sale", theme_id: id });
    expect(await ok("DELETE", `/internal/email-themes/${id}`, p.admin)).toEqual({ success: true });
    expect((await ok("GET", "/internal/email-themes", p.admin)).themes.map((t: { id: string }) => t.id)).not.toContain(id);
    expectPlainError(await req("GET", `/internal/email-themes/${id}`, p.admin), 404);
    expect(await ok("GET", `/internal/email-templates/${templateId}`, p.admin)).not.toHaveProperty("theme_id");
    expect(await ok("GET", `/internal/email-drafts/${draftId}`, p.admin)).not.toHaveProperty("theme_id");
  });

  it("DELETE of the selected theme → 400, of a built-in one → 400, of an unknown or another project's → 404 (plain text)", async () => {
    const p = await createProject(server);
    const { id } = await ok("POST", "/internal/email-themes", p.admin, { display_name: "Chosen" });
    await patchProjectConfig(server, p, { email_theme: id });
    expectPlainError(
      await req("DELETE", `/internal/email-themes/${id}`, p.admin),
      400,
      /^Cannot delete the currently active email theme\. Please select a different theme first\.$/,
    );
    for (const builtIn of [DEFAULT_EMAIL_THEME_ID, DARK_EMAIL_THEME_ID, COLORFUL_EMAIL_THEME_ID]) {
      expectPlainError(await req("DELETE", `/internal/email-themes/${builtIn}`, p.admin), 400, /Built-in e-mail themes cannot be deleted/);
    }
    const { id: foreign } = await ok("POST", "/internal/email-themes", custom.admin, { display_name: "Not p's" });
    for (const themeId of [UNKNOWN_UUID, foreign]) {
      expectPlainError(await req("DELETE", `/internal/email-themes/${themeId}`, p.admin), 404, /^No theme found with given id$/);
    }
    expect((await ok("GET", `/internal/email-themes/${foreign}`, custom.admin)).display_name).toBe("Not p's");
    expect((await ok("GET", `/internal/email-themes/${id}`, p.admin)).display_name).toBe("Chosen");
    for (const as of [p.client, p.server])
      expectKnownError(await req("DELETE", `/internal/email-themes/${id}`, as), "INSUFFICIENT_ACCESS_TYPE", 401);
  });
});

describe("/internal/email-templates", () => {
  it("POST on shared e-mail → REQUIRES_CUSTOM_EMAIL_SERVER, nothing added", async () => {
    const res = await req("POST", "/internal/email-templates", project.admin, { display_name: "Newsletter" });
    expectKnownError(res, "REQUIRES_CUSTOM_EMAIL_SERVER", 400);
    expect(await templates(project)).toHaveLength(5);
  });

  it("PATCH on shared e-mail → REQUIRES_CUSTOM_EMAIL_SERVER, nothing saved (its mail goes out in the built-in wording)", async () => {
    const path = `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.password_reset}`;
    const before = await ok("GET", path, project.admin);
    for (const body of [{ tsx_source: templateSource("Not sent anyway") }, { theme_id: false }]) {
      expectKnownError(await req("PATCH", path, project.admin, body), "REQUIRES_CUSTOM_EMAIL_SERVER", 400);
    }
    expect(await ok("GET", path, project.admin)).toEqual(before);
  });

  it("POST → {id}; listed with the starter source; GET one", async () => {
    const created = await ok("POST", "/internal/email-templates", custom.admin, { display_name: "Newsletter" });
    expect(Object.keys(created)).toEqual(["id"]);
    const item = { id: created.id, display_name: "Newsletter", tsx_source: NEW_TEMPLATE_SOURCE };
    expect(await templates(custom)).toContainEqual(item);
    expect(await ok("GET", `/internal/email-templates/${created.id}`, custom.admin)).toEqual(item);
  });

  it("PATCH → {rendered_html} for a sample user in the saved theme; theme_id uuid, false, or null (absent)", async () => {
    const { id } = await ok("POST", "/internal/email-templates", custom.admin, { display_name: "Themed" });
    const path = `/internal/email-templates/${id}`;
    const { id: themeId } = await ok("POST", "/internal/email-themes", custom.admin, { display_name: "Marked" });
    await ok("PATCH", `/internal/email-themes/${themeId}`, custom.admin, { tsx_source: themeSource("marked-theme") });

    const source = templateSource("Template body: {variables.otp}");
    const res = await ok("PATCH", path, custom.admin, { tsx_source: source, theme_id: themeId });
    expect(Object.keys(res)).toEqual(["rendered_html"]);
    expect(res.rendered_html).toContain("marked-theme");
    expect(res.rendered_html).toContain("Template body: ");
    // Sample variables fill in what a real send would.
    expect(res.rendered_html).toContain("A1B2C3");
    expect(await ok("GET", path, custom.admin)).toEqual({ id, display_name: "Themed", tsx_source: source, theme_id: themeId });

    const unframed = await ok("PATCH", path, custom.admin, { theme_id: false });
    expect(unframed.rendered_html).not.toContain("marked-theme");
    expect(unframed.rendered_html).toContain("Template body: ");
    expect((await ok("GET", path, custom.admin)).theme_id).toBe(false);

    // null: back to the project's selected theme (the light default).
    const selected = await ok("PATCH", path, custom.admin, { theme_id: null });
    expect(selected.rendered_html).toContain("#e4e4e7");
    expect(await ok("GET", path, custom.admin)).toEqual({ id, display_name: "Themed", tsx_source: source });
  });

  it("a PATCH that does not render → EMAIL_RENDERING_ERROR (400), and nothing is saved", async () => {
    const id = DEFAULT_EMAIL_TEMPLATE_IDS.email_verification;
    const path = `/internal/email-templates/${id}`;
    const before = await ok("GET", path, custom.admin);
    for (const tsx_source of [BROKEN_TSX, THROWING_TSX, `export const subject = "no component";`]) {
      const res = await req("PATCH", path, custom.admin, { tsx_source, theme_id: false });
      expectKnownError(res, "EMAIL_RENDERING_ERROR", 400);
      expect(Object.keys(res.body.details)).toEqual(["error"]);
    }
    // A theme that does not render fails the template's PATCH too.
    const { id: themeId } = await ok("POST", "/internal/email-themes", custom.admin, { display_name: "Broken later" });
    await db()
      .update(emailThemes)
      .set({ tsxSource: THROWING_TSX.replace("EmailTemplate", "EmailTheme") })
      .where(and(eq(emailThemes.projectId, custom.id), eq(emailThemes.id, themeId)));
    expectKnownError(await req("PATCH", path, custom.admin, { theme_id: themeId }), "EMAIL_RENDERING_ERROR", 400);
    expect(await ok("GET", path, custom.admin)).toEqual(before);
  });

  it("a theme_id that names no theme of the project → 404 plain text, nothing saved", async () => {
    const { id: foreignTheme } = await ok("POST", "/internal/email-themes", project.admin, { display_name: "Elsewhere" });
    const path = `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code}`;
    for (const themeId of [UNKNOWN_UUID, foreignTheme]) {
      expectPlainError(await req("PATCH", path, custom.admin, { theme_id: themeId }), 404, /theme/);
    }
    expect((await ok("GET", path, custom.admin)).theme_id).toBeUndefined();
  });

  it("DELETE → {}; then 404", async () => {
    const { id } = await ok("POST", "/internal/email-templates", custom.admin, { display_name: "Short-lived" });
    const path = `/internal/email-templates/${id}`;
    expect(await ok("DELETE", path, custom.admin)).toEqual({});
    expect((await templates(custom)).map((t) => t.id)).not.toContain(id);
    expectPlainError(await req("DELETE", path, custom.admin), 404);
    expectPlainError(await req("GET", path, custom.admin), 404);
    expectPlainError(await req("PATCH", path, custom.admin, {}), 404);
  });

  it("another project's templates → 404 plain text, and stay as they are", async () => {
    const { id } = await ok("POST", "/internal/email-templates", custom.admin, { display_name: "Custom only" });
    const other = await ownSmtpProject();
    for (const [method, body] of [["GET"], ["PATCH", { tsx_source: templateSource("hijacked") }], ["DELETE"]] as const) {
      expectPlainError(await req(method, `/internal/email-templates/${id}`, other.admin, body), 404);
    }
    expect((await ok("GET", `/internal/email-templates/${id}`, custom.admin)).tsx_source).toBe(NEW_TEMPLATE_SOURCE);
  });

  it("schema errors", async () => {
    expectSchemaError(
      await req("POST", "/internal/email-templates", custom.admin, { display_name: 1 }),
      "POST",
      "/internal/email-templates",
      ["body.display_name must be a `string` type, but the final value was: `1`."],
    );
    const path = `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code}`;
    expectSchemaError(await req("PATCH", path, custom.admin, { theme_id: "dark" }), "PATCH", path, [
      "body.theme_id must be a valid UUID or false",
    ]);
    expectSchemaError(await req("PATCH", path, custom.admin, { theme_id: true, display_name: "x" }), "PATCH", path, [
      "body.theme_id must be a valid UUID or false",
      "body contains unknown properties: display_name",
    ]);
    expectSchemaError(await req("PATCH", path, custom.admin, { tsx_source: "" }), "PATCH", path, ["body.tsx_source must not be empty"]);
    expectSchemaError(await req("DELETE", "/internal/email-templates/1", custom.admin), "DELETE", "/internal/email-templates/1", [
      "params.template_id must be a valid UUID",
    ]);
  });
});

describe("/internal/email-drafts", () => {
  it("POST → {id}; GET list and one; PATCH and DELETE → {ok: ok}", async () => {
    const created = await ok("POST", "/internal/email-drafts", project.admin, { display_name: "Launch" });
    expect(Object.keys(created)).toEqual(["id"]);
    const path = `/internal/email-drafts/${created.id}`;
    const item = { id: created.id, display_name: "Launch", tsx_source: NEW_DRAFT_SOURCE, sent_at_millis: null };
    expect(await ok("GET", path, project.admin)).toEqual(item);
    expect((await ok("GET", "/internal/email-drafts", project.admin)).drafts).toContainEqual(item);

    const source = templateSource("We launched");
    expect(
      await ok("PATCH", path, project.admin, { display_name: "Launch day", tsx_source: source, theme_id: DARK_EMAIL_THEME_ID }),
    ).toEqual({
      ok: "ok",
    });
    expect(await ok("GET", path, project.admin)).toEqual({
      id: created.id,
      display_name: "Launch day",
      tsx_source: source,
      theme_id: DARK_EMAIL_THEME_ID,
      sent_at_millis: null,
    });
    await ok("PATCH", path, project.admin, { theme_id: false });
    expect((await ok("GET", path, project.admin)).theme_id).toBe(false);
    await ok("PATCH", path, project.admin, { theme_id: null });
    expect(Object.keys(await ok("GET", path, project.admin))).toEqual(["id", "display_name", "tsx_source", "sent_at_millis"]);

    expect(await ok("DELETE", path, project.admin)).toEqual({ ok: "ok" });
    expectPlainError(await req("GET", path, project.admin), 404);
    expectPlainError(await req("PATCH", path, project.admin, { display_name: "again" }), 404);
    expectPlainError(await req("DELETE", path, project.admin), 404);
  });

  it("POST with source and theme; a draft needs no custom e-mail server; drafts may be unfinished", async () => {
    const created = await ok("POST", "/internal/email-drafts", project.admin, {
      display_name: "Work in progress",
      tsx_source: BROKEN_TSX,
      theme_id: false,
    });
    expect(await ok("GET", `/internal/email-drafts/${created.id}`, project.admin)).toEqual({
      id: created.id,
      display_name: "Work in progress",
      tsx_source: BROKEN_TSX,
      theme_id: false,
      sent_at_millis: null,
    });
  });

  it("sent_at_millis is null until the draft has been sent", async () => {
    const { id } = await ok("POST", "/internal/email-drafts", project.admin, { display_name: "To send" });
    // Scoped by project: marking it as another project's does nothing.
    await markDraftSent(db(), custom.id, id);
    expect((await ok("GET", `/internal/email-drafts/${id}`, project.admin)).sent_at_millis).toBeNull();
    expect(
      (await ok("GET", "/internal/email-drafts", project.admin)).drafts.find((d: { id: string }) => d.id === id).sent_at_millis,
    ).toBeNull();
    const before = Date.now();
    await markDraftSent(db(), project.id, id);
    const draft = await ok("GET", `/internal/email-drafts/${id}`, project.admin);
    expect(Object.keys(draft)).toEqual(["id", "display_name", "tsx_source", "sent_at_millis"]);
    expect(draft.sent_at_millis).toBeGreaterThanOrEqual(before - 1000);
    expect(draft.sent_at_millis).toBeLessThanOrEqual(Date.now() + 1000);
  });

  it("another project's drafts → 404 plain text, unchanged; lists are per project", async () => {
    const { id } = await ok("POST", "/internal/email-drafts", custom.admin, { display_name: "Custom draft" });
    expectPlainError(await req("GET", `/internal/email-drafts/${id}`, project.admin), 404);
    expectPlainError(await req("PATCH", `/internal/email-drafts/${id}`, project.admin, { display_name: "Taken" }), 404);
    expectPlainError(await req("DELETE", `/internal/email-drafts/${id}`, project.admin), 404);
    expect((await ok("GET", "/internal/email-drafts", project.admin)).drafts.map((d: { id: string }) => d.id)).not.toContain(id);
    expect((await ok("GET", `/internal/email-drafts/${id}`, custom.admin)).display_name).toBe("Custom draft");
    const rows = await db().select().from(emailDrafts).where(eq(emailDrafts.id, id));
    expect(rows).toHaveLength(1);
  });

  it("a theme_id naming no theme of the project → 404 plain text; schema errors", async () => {
    expectPlainError(
      await req("POST", "/internal/email-drafts", project.admin, { display_name: "x", theme_id: UNKNOWN_UUID }),
      404,
      /theme/,
    );
    expectSchemaError(await req("POST", "/internal/email-drafts", project.admin, { tsx_source: "x" }), "POST", "/internal/email-drafts", [
      "body.display_name must be defined",
    ]);
    expectSchemaError(await req("GET", "/internal/email-drafts/abc", project.admin), "GET", "/internal/email-drafts/abc", [
      "params.draft_id must be a valid UUID",
    ]);
    const { id } = await ok("POST", "/internal/email-drafts", project.admin, { display_name: "Valid" });
    const path = `/internal/email-drafts/${id}`;
    expectSchemaError(await req("PATCH", path, project.admin, { sent_at_millis: 1 }), "PATCH", path, [
      "body contains unknown properties: sent_at_millis",
    ]);
  });
});

describe("POST /emails/render-email", () => {
  const render = (as: Auth, body: unknown) => req("POST", "/emails/render-email", as, body);

  it("a stored template in its theme, with the caller's variables over the samples → {html, subject}", async () => {
    const res = await render(project.admin, { template_id: DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code, variables: { otp: "XYZ789" } });
    expect(res.status, res.text).toBe(200);
    expect(Object.keys(res.body)).toEqual(["html", "subject"]);
    expect(res.body.subject).toBe("Your sign-in code for Test project: XYZ789");
    expect(res.body.html).toContain("XYZ789");
    expect(res.body.html).toContain("#e4e4e7");
  });

  it("TSX sources for template and theme; theme_id false renders unframed; no subject export → no subject", async () => {
    const framed = await render(project.admin, {
      template_tsx_source: templateSource("Preview body"),
      theme_tsx_source: themeSource("preview-theme"),
    });
    expect(framed.status, framed.text).toBe(200);
    expect(framed.body.html).toContain("preview-theme");
    expect(framed.body.html).toContain("Preview body");
    expect(framed.body.subject).toBeUndefined();

    const bare = await render(project.admin, { template_tsx_source: templateSource("Bare body", { subject: "Bare" }), theme_id: false });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.body.html).toContain("Bare body");
    expect(bare.body.html).not.toContain("#e4e4e7");
    expect(bare.body.subject).toBe("Bare");

    const dark = await render(project.admin, { template_tsx_source: templateSource("Dark body"), theme_id: DARK_EMAIL_THEME_ID });
    expect(dark.body.html).toContain("#09090b");
  });

  it("failures: not rendering → EMAIL_RENDERING_ERROR; unknown ids → 404; bad combinations → SCHEMA_ERROR", async () => {
    expectKnownError(await render(project.admin, { template_tsx_source: THROWING_TSX }), "EMAIL_RENDERING_ERROR", 400);
    expectKnownError(await render(project.admin, { template_tsx_source: BROKEN_TSX }), "EMAIL_RENDERING_ERROR", 400);
    const { id: foreign } = await ok("POST", "/internal/email-templates", custom.admin, { display_name: "Custom preview" });
    expectPlainError(await render(project.admin, { template_id: foreign }), 404, /template/);
    expectPlainError(await render(project.admin, { template_id: UNKNOWN_UUID }), 404, /template/);
    expectPlainError(await render(project.admin, { template_tsx_source: templateSource("x"), theme_id: UNKNOWN_UUID }), 404, /theme/);
    const path = "/emails/render-email";
    expectSchemaError(await render(project.admin, {}), "POST", path, [
      "body must contain exactly one of template_id and template_tsx_source",
    ]);
    expectSchemaError(
      await render(project.admin, { template_id: foreign, template_tsx_source: "x", theme_id: false, theme_tsx_source: "y" }),
      "POST",
      path,
      ["body must contain exactly one of template_id and template_tsx_source", "body must not contain both theme_id and theme_tsx_source"],
    );
    expectSchemaError(await render(project.admin, { template_tsx_source: "x", variables: [] }), "POST", path, [
      "body.variables must be a `record` type, but the final value was: `[]`.",
    ]);
    expectSchemaError(await render(project.admin, { template_tsx_source: "x", editable_markers: true }), "POST", path, [
      "body contains unknown properties: editable_markers",
    ]);
  });
});

describe("code mails use the project's templates", () => {
  const signUp = (p: Project, email: string) =>
    server.request("/auth/password/sign-up", {
      method: "POST",
      as: p.client,
      body: { email, password: PASSWORD, verification_callback_url: CALLBACK_URL },
    });

  it("through the shared server, code mails keep the built-in wording even when the template was edited", async () => {
    // Edited while the project had its own server, then back on the shared one.
    const p = await ownSmtpProject();
    const source = templateSource("Click here to claim your prize: {variables.link}", { subject: "You won" });
    await ok("PATCH", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.email_verification}`, p.admin, { tsx_source: source });
    await patchProjectConfig(server, p, { email_config: { type: "shared" } });
    const email = uniqueEmail("shared");
    expect((await signUp(p, email)).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Verify your e-mail address for Test project");
    expect(mail.text).not.toContain("prize");
  });

  it("a verification mail is rendered from the edited template in the project's selected theme", async () => {
    const p = await ownSmtpProject();
    const source = templateSource("Custom verification: {variables.link}", { subject: "Please verify (custom)" });
    await ok("PATCH", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.email_verification}`, p.admin, { tsx_source: source });
    await patchProjectConfig(server, p, { email_theme: DARK_EMAIL_THEME_ID });
    const email = uniqueEmail("templated");
    expect((await signUp(p, email)).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Please verify (custom)");
    expect(mail.text).toContain("Custom verification:");
    expect(mail.html).toContain("#09090b");
    const { code } = linkIn(mail);
    const verified = await server.request("/contact-channels/verify", { method: "POST", as: p.client, body: { code } });
    expect(verified.status, verified.text).toBe(200);
  });

  it("the built-in templates keep the subjects and the typed code of the plain messages", async () => {
    const p = await ownSmtpProject();
    const email = uniqueEmail("builtin");
    expect((await signUp(p, email)).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Verify your e-mail address for Test project");
    expect(mail.html).toContain("#e4e4e7");
    linkIn(mail);
  });

  it("a selected theme that no longer exists falls back to the light default", async () => {
    const p = await ownSmtpProject();
    await patchProjectConfig(server, p, { email_theme: UNKNOWN_UUID });
    const email = uniqueEmail("lost-theme");
    expect((await signUp(p, email)).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.html).toContain("#e4e4e7");
    expect(mail.subject).toBe("Verify your e-mail address for Test project");
  });

  it("an edited template that throws for real recipients → the plain message, and the code still works", async () => {
    const p = await ownSmtpProject();
    // Renders for the sample link (so the PATCH is accepted), throws for a real one, naming it.
    const source = templateSource("Fragile", {
      extra: `if (!String(variables.link).includes("example.com")) throw new Error("cannot use " + variables.link);`,
    });
    await ok("PATCH", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.email_verification}`, p.admin, { tsx_source: source });
    const email = uniqueEmail("fallback");
    expect((await signUp(p, email)).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Verify your e-mail address for Test project");
    expect(mail.text).not.toContain("Fragile");
    const { code } = linkIn(mail);
    const verified = await server.request("/contact-channels/verify", { method: "POST", as: p.client, body: { code } });
    expect(verified.status, verified.text).toBe(200);
  });

  it("the fallback is logged as a warning without the code or the link", async () => {
    const p = await ownSmtpProject();
    const source = templateSource("Fragile", {
      extra: `if (!String(variables.link).includes("example.com")) throw new Error("cannot use " + variables.link + " / " + variables.otp.toLowerCase());`,
    });
    await ok("PATCH", `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_code}`, p.admin, { tsx_source: source });
    const project = (await server.instance.services.projects.get(p.id))!;
    const { logger, logs } = capturingLogger();
    const to = uniqueEmail("logged");
    const prepared = await prepareCodeMail(db(), logger, {
      project,
      branchId: "main",
      purpose: "otp_sign_in",
      to,
      callbackUrl: CALLBACK_URL,
    });
    await server.instance.services.events.transaction(db(), (tx) => saveCodeMail(tx, prepared, {}, server.clock.date()));
    const { code } = prepared;
    const warning = logs.find((l) => l.level === 40);
    expect(warning, JSON.stringify(logs)).toBeDefined();
    expect(warning!.templateKind).toBe("sign_in_code");
    expect(String(warning!.error)).toContain("cannot use [redacted] / [redacted]");
    const line = JSON.stringify(logs).toLowerCase();
    expect(line).not.toContain(code);
    expect(line).not.toContain(code.slice(0, 6));
    const [queued] = await db()
      .select()
      .from(sentEmails)
      .where(and(eq(sentEmails.projectId, p.id)));
    expect(queued!.subject).toBe(`Your sign-in code for Test project: ${code.slice(0, 6).toUpperCase()}`);
    expect(queued!.to).toEqual([to]);
  });
});
