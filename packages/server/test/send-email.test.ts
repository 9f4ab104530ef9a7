/**
 * POST /emails/send-email through a real SMTP peer as the
 * project's own server: HTML mail to named users and to all users, who is
 * skipped and why, all-or-nothing on unknown users, the custom-server rule,
 * access, input errors, the unsubscribe link of Marketing mail, and stored
 * templates and drafts rendered per user in their themes.
 */
import { DEFAULT_EMAIL_THEME_ID } from "@latchkey/shared";
import { count, eq } from "drizzle-orm";
import type { ParsedMail } from "mailparser";
import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emailDrafts, emailTemplates, emailThemes, sentEmails } from "../src/db/schema/index.ts";
import {
  createProject,
  expectPlainError,
  expectSchemaError,
  expectSchemaErrorIncluding,
  patchProjectConfig,
  signUpUser,
  type Project,
  UNKNOWN_UUID,
} from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { createMailingTestServer, ownSmtpConfig, recipients, warmRenderer, type MailingServer } from "./mail-fixtures.ts";

const MARKETING = "4f6f8873-3d04-46bd-8bef-18338b1a1b4c";

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => {
  [mailing] = await Promise.all([createMailingTestServer(), warmRenderer()]);
  server = mailing.server;
  project = await ownServerProject();
});
afterAll(() => mailing?.close());

/** A project whose mail goes through its own SMTP server (the test peer). */
async function ownServerProject(): Promise<Project> {
  const p = await createProject(server);
  await patchProjectConfig(server, p, { email_config: ownSmtpConfig(mailing.smtp.port) });
  return p;
}

let subjects = 0;
const uniqueSubject = (label: string) => `${label} #${++subjects}-${Date.now().toString(36)}`;

const send = (as: Auth, body: unknown) => server.request("/emails/send-email", { method: "POST", as, body });

async function sent(as: Auth, body: Record<string, unknown>) {
  const res = await send(as, body);
  expect(res.status, res.text).toBe(200);
  expect(Object.keys(res.body)).toEqual(["results"]);
  return res.body.results as { user_id: string }[];
}

/** Each result names a recipient, and nothing else: what became of each copy is in the sent-mail list. */
const resultsFor = (...users: { userId: string }[]) => users.map((u) => ({ user_id: u.userId }));

/** What the sent-mail list says of the copies with this subject: [address or "", status, error], by address. */
async function outcomes(p: Project, subject: string): Promise<[string, string, string | null][]> {
  await server.instance.services.emails.flush();
  const res = await server.request("/internal/emails", { as: p.admin });
  expect(res.status, res.text).toBe(200);
  return (res.body.items as { to: string[]; subject: string; status: string; error: string | null }[])
    .filter((e) => e.subject === subject)
    .map((e): [string, string, string | null] => [e.to[0] ?? "", e.status, e.error])
    .sort((x, y) => x[0].localeCompare(y[0]) || x[1].localeCompare(y[1]));
}

const NO_ADDRESS = "The user has no primary e-mail address.";
const TURNED_OFF = "The user turned this notification category off.";

async function queuedCount(p: Project): Promise<number> {
  const [row] = await server.instance.services.db.select({ n: count() }).from(sentEmails).where(eq(sentEmails.projectId, p.id));
  return row!.n;
}

/** How many messages with this subject reached `to` (after the queue ran). */
async function arrivals(to: string, subject: string): Promise<number> {
  await server.instance.services.emails.flush();
  return mailing.smtp.inbox.filter((m) => m.subject === subject && recipients(m).includes(to.toLowerCase())).length;
}

function link(mail: ParsedMail): URL {
  const found = (mail.text ?? "").match(/https?:\/\/[^\s\]]+\/emails\/unsubscribe\?token=[^\s\]]+/)?.[0];
  expect(found, `no unsubscribe link in:\n${mail.text}`).toBeTruthy();
  return new URL(found!);
}

const setMarketing = (p: Project, userId: string, enabled: boolean) =>
  server.request(`/emails/notification-preference/${userId}/${MARKETING}`, { method: "PATCH", as: p.server, body: { enabled } });

describe("html to named users", () => {
  it("delivers the HTML as given, once per user, from the project's server", async () => {
    const [a, b] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    const subject = uniqueSubject("Welcome");
    const html = "<h1>Hello there</h1><p>Thanks for joining.</p>";
    // A repeated id is still one message.
    const results = await sent(project.server, { user_ids: [a.userId, b.userId, a.userId], html, subject });
    expect(results).toEqual(resultsFor(a, b));
    for (const user of [a, b]) {
      const mail = await mailing.mailTo(user.email, new RegExp(subject.replace(/[#]/g, "\\#")));
      expect(mail.subject).toBe(subject);
      expect(mail.from?.value[0]).toMatchObject({ name: "Shop", address: "shop@example.com" });
      expect(recipients(mail)).toEqual([user.email.toLowerCase()]);
      expect(mail.html).toBe(html);
      expect(mail.text).toContain("Thanks for joining.");
      // Transactional mail has no unsubscribe link.
      expect(mail.text).not.toContain("unsubscribe");
      expect(await arrivals(user.email, subject)).toBe(1);
    }
  });

  it("takes HTML up to 100,000 characters; deeply nested HTML still gets a text part", async () => {
    const user = await signUpUser(server, project);
    const tooLong = await send(project.server, { user_ids: [user.userId], html: "x".repeat(100_001), subject: "Too long" });
    expectSchemaErrorIncluding(tooLong, "body.html must be at most 100000 characters");
    const subject = uniqueSubject("Nested");
    const html = `${"<div>".repeat(19_000)}Deep inside`;
    expect(await sent(project.server, { user_ids: [user.userId], html, subject })).toEqual(resultsFor(user));
    const mail = await mailing.mailTo(user.email, new RegExp(subject.replace(/[#]/g, "\\#")));
    expect(mail.text).toContain("Deep inside");
  });

  it("works with admin access, and with an empty list sends nothing", async () => {
    const user = await signUpUser(server, project);
    const subject = uniqueSubject("From the admin");
    expect(await sent(project.admin, { user_ids: [user.userId], html: "<p>Hi</p>", subject })).toEqual(resultsFor(user));
    expect(await arrivals(user.email, subject)).toBe(1);
    const before = await queuedCount(project);
    expect(await sent(project.server, { user_ids: [], html: "<p>Hi</p>", subject: "Nobody" })).toEqual([]);
    expect(await queuedCount(project)).toBe(before);
  });
});

describe("html to all users", () => {
  it("reaches every user of the project who is not anonymous, once, and no one elsewhere", async () => {
    const p = await ownServerProject();
    const users = [await signUpUser(server, p), await signUpUser(server, p), await signUpUser(server, p)];
    const anonymous = await server.request("/auth/anonymous/sign-up", { method: "POST", as: p.client });
    expect(anonymous.status, anonymous.text).toBe(200);
    const outsider = await signUpUser(server, project);
    const subject = uniqueSubject("News for all");
    const results = await sent(p.server, { all_users: true, html: "<p>Big news</p>", subject });
    // By sign-up time.
    expect(results).toEqual(resultsFor(...users));
    for (const u of users) expect(await arrivals(u.email, subject)).toBe(1);
    expect(await arrivals(outsider.email, subject)).toBe(0);
    expect(await queuedCount(p)).toBe(3);
  });
});

describe("skipped users", () => {
  it("skips users who turned Marketing off, but still sends them Transactional mail", async () => {
    const [keen, tired] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    expect((await setMarketing(project, tired.userId, false)).status).toBe(200);
    const subject = uniqueSubject("Sale");
    const results = await sent(project.server, {
      user_ids: [keen.userId, tired.userId],
      html: "<p>Everything half price</p>",
      subject,
      notification_category_name: "Marketing",
    });
    expect(results).toEqual(resultsFor(keen, tired));
    expect(await outcomes(project, subject)).toEqual(
      [
        [keen.email, "sent", null],
        [tired.email, "skipped", TURNED_OFF],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    expect(await arrivals(keen.email, subject)).toBe(1);
    expect(await arrivals(tired.email, subject)).toBe(0);

    const notice = uniqueSubject("Terms changed");
    expect(
      await sent(project.server, {
        user_ids: [tired.userId],
        html: "<p>New terms</p>",
        subject: notice,
        notification_category_name: "Transactional",
      }),
    ).toEqual(resultsFor(tired));
    expect(await arrivals(tired.email, notice)).toBe(1);
  });

  it("skips users without a primary e-mail", async () => {
    const created = await server.request("/users", { method: "POST", as: project.server, body: { display_name: "No mail" } });
    expect(created.status, created.text).toBe(201);
    const user = await signUpUser(server, project);
    const subject = uniqueSubject("Hello");
    expect(await sent(project.server, { user_ids: [created.body.id, user.userId], html: "<p>Hi</p>", subject })).toEqual([
      { user_id: created.body.id },
      { user_id: user.userId },
    ]);
    expect(await outcomes(project, subject)).toEqual([
      ["", "skipped", NO_ADDRESS],
      [user.email, "sent", null],
    ]);
    expect(await arrivals(user.email, subject)).toBe(1);
  });
});

describe("all or nothing", () => {
  it("answers USER_ID_DOES_NOT_EXIST for an unknown user and sends nothing to anyone", async () => {
    const user = await signUpUser(server, project);
    const before = await queuedCount(project);
    const subject = uniqueSubject("Never sent");
    const res = await send(project.server, { user_ids: [user.userId, UNKNOWN_UUID], html: "<p>x</p>", subject });
    expectKnownError(res, "USER_ID_DOES_NOT_EXIST", 400);
    expect(res.body.details).toEqual({ user_id: UNKNOWN_UUID });
    expect(await queuedCount(project)).toBe(before);
    expect(await arrivals(user.email, subject)).toBe(0);
  });

  it("treats another project's users as unknown", async () => {
    const other = await ownServerProject();
    const stranger = await signUpUser(server, other);
    const before = await queuedCount(project);
    const res = await send(project.server, { user_ids: [stranger.userId], html: "<p>x</p>", subject: uniqueSubject("Not yours") });
    expectKnownError(res, "USER_ID_DOES_NOT_EXIST", 400);
    expect(res.body.details).toEqual({ user_id: stranger.userId });
    expect(await queuedCount(project)).toBe(before);
    expect(await queuedCount(other)).toBe(0);
  });
});

describe("refusals", () => {
  it("needs the project's own SMTP server (checked before anything else)", async () => {
    const shared = await createProject(server);
    const user = await signUpUser(server, shared);
    for (const body of [
      { user_ids: [user.userId], html: "<p>x</p>", subject: "x" },
      { user_ids: [UNKNOWN_UUID], html: "<p>x</p>", subject: "x" },
      { all_users: true, html: "<p>x</p>", subject: "x" },
    ]) {
      expectKnownError(await send(shared.server, body), "REQUIRES_CUSTOM_EMAIL_SERVER", 400);
    }
    expect(await queuedCount(shared)).toBe(0);
  });

  it("is closed to client access", async () => {
    const user = await signUpUser(server, project);
    const res = await send(user.as, { user_ids: [user.userId], html: "<p>x</p>", subject: "x" });
    expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
  });

  it("names what is wrong with the body", async () => {
    const user = await signUpUser(server, project);
    const before = await queuedCount(project);
    const path = "/emails/send-email";
    const ids = [user.userId];
    const recipientsRule = "body must name the recipients with exactly one of user_ids or all_users: true";
    const messageRule = "body must give the message with exactly one of html, template_id or draft_id";
    const cases: [unknown, string[]][] = [
      [{ user_ids: ids, all_users: true, html: "<p>x</p>", subject: "x" }, [recipientsRule]],
      [{ html: "<p>x</p>", subject: "x" }, [recipientsRule]],
      [{ all_users: false, html: "<p>x</p>", subject: "x" }, [recipientsRule]],
      [{ user_ids: ids, subject: "x" }, [messageRule]],
      [{ user_ids: ids, html: "<p>x</p>", subject: "x", template_id: UNKNOWN_UUID }, [messageRule]],
      [{ user_ids: ids, template_id: UNKNOWN_UUID, draft_id: UNKNOWN_UUID }, [messageRule]],
      [{ user_ids: ids, html: "<p>x</p>" }, ["body.subject must be defined when html is given"]],
      [
        { user_ids: ids, html: "<p>x</p>", subject: "x", variables: { a: 1 } },
        ["body.variables can only be used with template_id or draft_id"],
      ],
      [{ user_ids: ["nope"], html: "<p>x</p>", subject: "x" }, ["body.user_ids[0] must be a valid UUID"]],
      [{ user_ids: ids, html: "", subject: "x" }, ["body.html must not be empty"]],
      [{ user_ids: ids, html: "<p>x</p>", subject: "x", cc: "a@example.com" }, ["body contains unknown properties: cc"]],
      [{ user_ids: ids, html: "<p>x</p>", subject: "x", theme_id: "dark" }, ["body.theme_id must be a valid UUID or false"]],
      [{ user_ids: ids, template_id: "welcome" }, ["body.template_id must be a valid UUID"]],
    ];
    for (const [body, messages] of cases) expectSchemaError(await send(project.server, body), "POST", path, messages);
    // An unknown category is the route's answer, not the schema's (the names are the API's, compared exactly).
    for (const name of ["Spam", "marketing"]) {
      const res = await send(project.server, { user_ids: ids, html: "<p>x</p>", subject: "x", notification_category_name: name });
      expectPlainError(res, 400, /^Notification category not found with given name$/);
    }
    expect(await queuedCount(project)).toBe(before);
  });
});

describe("unsubscribe link", () => {
  it("comes with Marketing mail; opening it only asks, confirming turns Marketing off", async () => {
    const user = await signUpUser(server, project);
    const subject = uniqueSubject("Newsletter");
    await sent(project.server, {
      user_ids: [user.userId],
      html: "<html><body><p>Our news</p></body></html>",
      subject,
      notification_category_name: "Marketing",
    });
    const mail = await mailing.mailTo(user.email, new RegExp(subject.replace(/[#]/g, "\\#")));
    // The footer goes inside the body.
    expect(mail.html).toMatch(
      /<p>Our news<\/p><p[^>]*>Don't want these e-mails\? <a href="[^"]+">Unsubscribe<\/a>\.<\/p><\/body><\/html>$/,
    );
    const url = link(mail);
    expect(url.pathname).toBe("/api/v1/emails/unsubscribe");
    const token = url.searchParams.get("token")!;

    const page = await server.request("/emails/unsubscribe", { query: { token } });
    expect(page.status, page.text).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.text).toContain('<form method="post"');
    expect((await server.request(`/emails/notification-preference/${user.userId}`, { as: project.server })).body.items[1].enabled).toBe(
      true,
    );

    const done = await server.request("/emails/unsubscribe", { method: "POST", query: { token } });
    expect(done.status, done.text).toBe(200);
    expect(done.text).toContain("You are unsubscribed");
    expect((await server.request(`/emails/notification-preference/${user.userId}`, { as: project.server })).body.items[1].enabled).toBe(
      false,
    );
    // Twice is fine.
    expect((await server.request("/emails/unsubscribe", { method: "POST", query: { token } })).status).toBe(200);

    const next = uniqueSubject("Newsletter");
    expect(
      await sent(project.server, { user_ids: [user.userId], html: "<p>More</p>", subject: next, notification_category_name: "Marketing" }),
    ).toEqual(resultsFor(user));
    expect(await outcomes(project, next)).toEqual([[user.email, "skipped", TURNED_OFF]]);
  });

  it("gives each user their own link, appended to an HTML fragment", async () => {
    const [a, b] = await Promise.all([signUpUser(server, project), signUpUser(server, project)]);
    const subject = uniqueSubject("Offers");
    await sent(project.server, { user_ids: [a.userId, b.userId], html: "<p>Offer</p>", subject, notification_category_name: "Marketing" });
    const [mailA, mailB] = [await mailing.mailTo(a.email, /Offers/), await mailing.mailTo(b.email, /Offers/)];
    expect(mailA.html).toMatch(/^<p>Offer<\/p><p/);
    const tokenA = link(mailA).searchParams.get("token")!;
    expect(tokenA).not.toBe(link(mailB).searchParams.get("token"));
    expect((await server.request("/emails/unsubscribe", { method: "POST", query: { token: tokenA } })).status).toBe(200);
    const prefs = async (u: { userId: string }) =>
      (await server.request(`/emails/notification-preference/${u.userId}`, { as: project.server })).body.items[1].enabled;
    expect(await prefs(a)).toBe(false);
    expect(await prefs(b)).toBe(true);
  });

  it("refuses a forged or altered token with 400 plain text, and a deleted user's with 404", async () => {
    for (const token of ["", "abc", "a.b.c"]) {
      expectPlainError(await server.request("/emails/unsubscribe", { query: { token } }), 400, /not valid/);
      expectPlainError(await server.request("/emails/unsubscribe", { method: "POST", query: { token } }), 400, /not valid/);
    }
    const user = await signUpUser(server, project);
    const subject = uniqueSubject("Goodbye");
    await sent(project.server, { user_ids: [user.userId], html: "<p>x</p>", subject, notification_category_name: "Marketing" });
    const token = link(await mailing.mailTo(user.email, /Goodbye/)).searchParams.get("token")!;
    const [iv, tag, data] = token.split(".");
    const flipped = data!.slice(0, -1) + (data!.endsWith("A") ? "B" : "A");
    expectPlainError(await server.request("/emails/unsubscribe", { query: { token: [iv, tag, flipped].join(".") } }), 400, /not valid/);

    expect((await server.request(`/users/${user.userId}`, { method: "DELETE", as: project.server })).status).toBe(200);
    expectPlainError(await server.request("/emails/unsubscribe", { query: { token } }), 404, /no longer exists/);
    expectPlainError(await server.request("/emails/unsubscribe", { method: "POST", query: { token } }), 404, /no longer exists/);
  });
});

describe("templates and drafts", () => {
  const db = () => server.instance.services.db;

  const GREETING = `import * as React from "react";

export function subject({ project, variables }) {
  return "Greetings from " + variables.name + " at " + project.displayName;
}

export function EmailTemplate({ user, variables }) {
  return <p>Dear {user.primaryEmail}, {variables.name} says hello.</p>;
}
`;
  const NO_SUBJECT = `import * as React from "react";
export function EmailTemplate() {
  return <p>Nothing to declare.</p>;
}
`;
  const CUSTOM_THEME = `import * as React from "react";
export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <html>
      <body>
        <div>THEME-TOP</div>
        {children}
        {unsubscribeLink ? <a href={unsubscribeLink}>Leave the list</a> : null}
      </body>
    </html>
  );
}
`;

  async function storeTheme(p: Project): Promise<string> {
    const id = randomUUID();
    await db().insert(emailThemes).values({ projectId: p.id, id, displayName: "Custom", tsxSource: CUSTOM_THEME });
    return id;
  }
  async function storeTemplate(
    p: Project,
    tsxSource: string,
    theme: { themeId?: string; noTheme?: boolean } = {},
    displayName = "Greeting",
  ): Promise<string> {
    const id = randomUUID();
    await db()
      .insert(emailTemplates)
      .values({ projectId: p.id, id, displayName, tsxSource, ...theme });
    return id;
  }
  async function storeDraft(p: Project, tsxSource: string, theme: { themeId?: string; noTheme?: boolean } = {}): Promise<string> {
    const [row] = await db()
      .insert(emailDrafts)
      .values({ projectId: p.id, displayName: "Launch", tsxSource, ...theme })
      .returning();
    return row!.id;
  }
  const draftSentAt = async (id: string) => (await db().select().from(emailDrafts).where(eq(emailDrafts.id, id)))[0]!.sentAt;
  const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\#]/g, "\\$&");
  /** The unsubscribe link a theme put in the HTML. */
  const themedLink = (mail: ParsedMail) => {
    const href = /href="([^"]*\/emails\/unsubscribe\?token=[^"]*)"/.exec(String(mail.html))?.[1];
    expect(href, String(mail.html)).toBeTruthy();
    return new URL(href!.replaceAll("&amp;", "&"));
  };

  it("renders a stored template for each user, framed by the project's theme", async () => {
    const [a, b] = [await signUpUser(server, project), await signUpUser(server, project)];
    const template = await storeTemplate(project, GREETING);
    const results = await sent(project.server, { user_ids: [a.userId, b.userId], template_id: template, variables: { name: "Ada" } });
    expect(results).toEqual(resultsFor(a, b));
    for (const user of [a, b]) {
      const mail = await mailing.mailTo(user.email, /Greetings from Ada/);
      expect(mail.subject).toBe("Greetings from Ada at Test project");
      expect(mail.text).toContain(`Dear ${user.email}, Ada says hello.`);
      // The default light theme frames it; Transactional mail has no unsubscribe link.
      expect(mail.html).toContain("560px");
      expect(mail.html).not.toMatch(/unsubscribe/i);
      expect(await arrivals(user.email, mail.subject!)).toBe(1);
    }
  });

  it("lets the request's subject win, and falls back to the template's name", async () => {
    const user = await signUpUser(server, project);
    const plain = await storeTemplate(project, NO_SUBJECT, {}, "Monthly digest");
    await sent(project.server, { user_ids: [user.userId], template_id: plain });
    expect((await mailing.mailTo(user.email, /Monthly digest/)).text).toContain("Nothing to declare.");
    const greeting = await storeTemplate(project, GREETING);
    const subject = uniqueSubject("Chosen subject");
    await sent(project.server, { user_ids: [user.userId], template_id: greeting, variables: { name: "Bo" }, subject });
    expect((await mailing.mailTo(user.email, new RegExp(escape(subject)))).text).toContain("Bo says hello.");
  });

  it("frames with the template's theme unless theme_id says otherwise", async () => {
    const user = await signUpUser(server, project);
    const theme = await storeTheme(project);
    const template = await storeTemplate(project, NO_SUBJECT, { themeId: theme }, "Theme check");
    await sent(project.server, { user_ids: [user.userId], template_id: template, subject: "Own theme" });
    expect((await mailing.mailTo(user.email, /Own theme/)).html).toContain("THEME-TOP");
    await sent(project.server, { user_ids: [user.userId], template_id: template, subject: "No theme", theme_id: false });
    const bare = await mailing.mailTo(user.email, /No theme/);
    expect(bare.html).not.toContain("THEME-TOP");
    expect(bare.html).not.toContain("560px");
    expect(bare.text).toContain("Nothing to declare.");
    await sent(project.server, {
      user_ids: [user.userId],
      template_id: template,
      subject: "Default theme",
      theme_id: DEFAULT_EMAIL_THEME_ID,
    });
    const framed = await mailing.mailTo(user.email, /Default theme/);
    expect(framed.html).not.toContain("THEME-TOP");
    expect(framed.html).toContain("560px");
  });

  it("gives Marketing mail's theme the user's own unsubscribe link, which works", async () => {
    const user = await signUpUser(server, project);
    const theme = await storeTheme(project);
    const template = await storeTemplate(project, GREETING, { themeId: theme });
    await sent(project.server, {
      user_ids: [user.userId],
      template_id: template,
      variables: { name: "Cy" },
      notification_category_name: "Marketing",
    });
    const mail = await mailing.mailTo(user.email, /Greetings from Cy/);
    expect(mail.html).toContain("Leave the list");
    const url = themedLink(mail);
    expect((await server.request("/emails/unsubscribe", { method: "POST", query: { token: url.searchParams.get("token")! } })).status).toBe(
      200,
    );
    expect(
      await sent(project.server, {
        user_ids: [user.userId],
        template_id: template,
        variables: { name: "Cy" },
        notification_category_name: "Marketing",
      }),
    ).toEqual(resultsFor(user));
    expect(await outcomes(project, "Greetings from Cy at Test project")).toEqual([
      [user.email, "sent", null],
      [user.email, "skipped", TURNED_OFF],
    ]);
  });

  /** A template written for the wire contract, naming its category through the helpers module. */
  const declaring = (category: string) => `import * as React from "react";
import { NotificationCategory, Subject } from "@stackframe/emails";

export function EmailTemplate({ variables }) {
  return (
    <>
      <Subject value={"News: " + variables.topic} />
      <NotificationCategory value=${JSON.stringify(category)} />
      <p>All about {variables.topic}.</p>
    </>
  );
}
`;

  it("takes the category the template declares when the request names none", async () => {
    const [keen, tired] = [await signUpUser(server, project), await signUpUser(server, project)];
    expect((await setMarketing(project, tired.userId, false)).status).toBe(200);
    const template = await storeTemplate(project, declaring("Marketing"), { themeId: await storeTheme(project) });
    const topic = uniqueSubject("owls");
    expect(await sent(project.server, { user_ids: [keen.userId, tired.userId], template_id: template, variables: { topic } })).toEqual(
      resultsFor(keen, tired),
    );
    // Marketing: the user who turned it off is skipped, the other gets the theme's unsubscribe link.
    expect(await outcomes(project, `News: ${topic}`)).toEqual(
      [
        [keen.email, "sent", null],
        [tired.email, "skipped", TURNED_OFF],
      ].sort((x, y) => String(x[0]).localeCompare(String(y[0]))),
    );
    themedLink(await mailing.mailTo(keen.email, new RegExp(escape(`News: ${topic}`))));

    // The request's category wins over the template's.
    const notice = uniqueSubject("terms");
    await sent(project.server, {
      user_ids: [tired.userId],
      template_id: template,
      variables: { topic: notice },
      notification_category_name: "Transactional",
    });
    expect(await arrivals(tired.email, `News: ${notice}`)).toBe(1);
  });

  it("answers a template declaring an unknown category with 400 plain text, sending nothing", async () => {
    const user = await signUpUser(server, project);
    const template = await storeTemplate(project, declaring("Gossip"));
    const before = await queuedCount(project);
    const res = await send(project.server, { user_ids: [user.userId], template_id: template, variables: { topic: "x" } });
    expectPlainError(res, 400, /^Notification category not found with given name$/);
    expect(await queuedCount(project)).toBe(before);
  });

  it("frames HTML in a theme when theme_id asks for one (null: the project's)", async () => {
    const user = await signUpUser(server, project);
    const theme = await storeTheme(project);
    await sent(project.server, {
      user_ids: [user.userId],
      html: "<html><body><p>Framed content</p></body></html>",
      subject: "Framed html",
      theme_id: theme,
      notification_category_name: "Marketing",
    });
    const mail = await mailing.mailTo(user.email, /Framed html/);
    expect(mail.html).toContain("THEME-TOP");
    expect(mail.html).toContain("<p>Framed content</p>");
    expect(String(mail.html).match(/<body/g)).toHaveLength(1);
    // The theme carries the unsubscribe link; no second footer is added.
    expect(mail.html).toContain("Leave the list");
    expect(mail.html).not.toContain("Don't want these e-mails?");
    themedLink(mail);

    await sent(project.server, { user_ids: [user.userId], html: "<p>Project theme</p>", subject: "Project-themed html", theme_id: null });
    const themed = await mailing.mailTo(user.email, /Project-themed html/);
    expect(themed.html).toContain("<p>Project theme</p>");
    expect(themed.html).toContain("560px");
  });

  it("renders a draft, sends it, and marks it sent", async () => {
    const [a, b] = [await signUpUser(server, project), await signUpUser(server, project)];
    const draft = await storeDraft(project, GREETING);
    expect(await draftSentAt(draft)).toBeNull();
    const results = await sent(project.admin, { user_ids: [a.userId, b.userId], draft_id: draft, variables: { name: "Di" } });
    expect(results).toEqual(resultsFor(a, b));
    for (const user of [a, b]) expect((await mailing.mailTo(user.email, /Greetings from Di/)).text).toContain(`Dear ${user.email}`);
    expect((await draftSentAt(draft))!.getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("does not mark a draft sent when no one was reached", async () => {
    const created = await server.request("/users", { method: "POST", as: project.server, body: { display_name: "No mail" } });
    const draft = await storeDraft(project, GREETING);
    expect(await sent(project.server, { user_ids: [created.body.id], draft_id: draft, variables: { name: "Ed" } })).toEqual([
      { user_id: created.body.id },
    ]);
    expect(await outcomes(project, "Greetings from Ed at Test project")).toEqual([["", "skipped", NO_ADDRESS]]);
    expect(await draftSentAt(draft)).toBeNull();
  });

  it("answers an unknown (or another project's) template, draft or theme with 400 plain text, sending nothing", async () => {
    const user = await signUpUser(server, project);
    const other = await ownServerProject();
    const [theirTemplate, theirDraft, theirTheme] = [
      await storeTemplate(other, GREETING),
      await storeDraft(other, GREETING),
      await storeTheme(other),
    ];
    const mine = await storeTemplate(project, GREETING);
    const before = await queuedCount(project);
    for (const id of [UNKNOWN_UUID, theirTemplate]) {
      const res = await send(project.server, { user_ids: [user.userId], template_id: id });
      expectPlainError(res, 400, /^No template found with given template_id$/);
    }
    for (const id of [UNKNOWN_UUID, theirDraft]) {
      expectPlainError(await send(project.server, { user_ids: [user.userId], draft_id: id }), 400, /^No draft found with given draft_id$/);
    }
    for (const id of [UNKNOWN_UUID, theirTheme]) {
      const themed = await send(project.server, { user_ids: [user.userId], template_id: mine, theme_id: id });
      expectPlainError(themed, 400, /^No theme found with given id$/);
      const html = await send(project.server, { user_ids: [user.userId], html: "<p>x</p>", subject: "x", theme_id: id });
      expectPlainError(html, 400, /^No theme found with given id$/);
    }
    expect(await queuedCount(project)).toBe(before);
    expect(await draftSentAt(theirDraft)).toBeNull();
  });

  it("answers EMAIL_RENDERING_ERROR for a template that does not render, sending nothing", async () => {
    const [a, b] = [await signUpUser(server, project), await signUpUser(server, project)];
    // Renders for a, fails for b: nothing is queued for a either.
    const broken = await storeTemplate(
      project,
      `import * as React from "react";
export function EmailTemplate({ user }) {
  if (user.primaryEmail === ${JSON.stringify(b.email)}) throw new Error("no mail for b");
  return <p>Fine for a</p>;
}
`,
    );
    const before = await queuedCount(project);
    const res = await send(project.server, { user_ids: [a.userId, b.userId], template_id: broken });
    expectKnownError(res, "EMAIL_RENDERING_ERROR", 400);
    expect(res.body.error).toContain("no mail for b");
    expect(await queuedCount(project)).toBe(before);
  });
});
