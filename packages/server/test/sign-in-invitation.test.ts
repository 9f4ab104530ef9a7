/**
 * POST /internal/send-sign-in-invitation: server or admin access mails an
 * invitation to sign in, linking the trusted callback URL as given, in the
 * project's sign-in invitation template; an untrusted URL is refused.
 */
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectSchemaError, patchProjectConfig, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type Auth, type TestServer } from "./harness.ts";
import { ownSmtpConfig, type MailingServer, mailingWithProject } from "./mail-fixtures.ts";

const PATH = "/internal/send-sign-in-invitation";
const CALLBACK = "http://localhost:3000/handler/sign-in?from=invite";

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => ({ mailing, server, project } = await mailingWithProject({ warm: true })));
afterAll(() => mailing?.close());

const invite = (as: Auth, body: unknown) => server.request(PATH, { method: "POST", as, body });

describe("POST /internal/send-sign-in-invitation", () => {
  it("server or admin access → {success: true}; the mail links the callback URL as given, naming the project", async () => {
    for (const as of [project.server, project.admin]) {
      const email = uniqueEmail("invited");
      const res = await invite(as, { email, callback_url: CALLBACK });
      expect(res.status, res.text).toBe(200);
      expect(res.body).toEqual({ success: true });
      const mail = await mailing.mailTo(email);
      expect(mail.subject).toBe("You are invited to sign in to Test project");
      expect(mail.html).toContain(`href="${CALLBACK.replace("&", "&amp;")}"`);
      expect(mail.text).toContain(CALLBACK);
      // No code is added: the link is the caller's.
      expect(mail.text).not.toContain("code=");
    }
  });

  it("with the project's own server, the edited sign-in invitation template is used", async () => {
    const p = await createProject(server);
    await patchProjectConfig(server, p, { email_config: ownSmtpConfig(mailing.smtp.port) });
    const source = `import { Subject } from "@stackframe/emails";
export function EmailTemplate({ project, variables }) {
  return <><Subject value={"Come back to " + variables.teamDisplayName} /><a href={variables.signInInvitationLink}>Sign in again</a></>;
}`;
    const path = `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.sign_in_invitation}`;
    const saved = await server.request(path, { method: "PATCH", as: p.admin, body: { tsx_source: source } });
    expect(saved.status, saved.text).toBe(200);
    const email = uniqueEmail("returning");
    expect((await invite(p.server, { email, callback_url: CALLBACK })).status).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Come back to Test project");
    expect(mail.text).toContain("Sign in again");
    expect(mail.html).toContain(`href="${CALLBACK.replace("&", "&amp;")}"`);
  });

  it("an untrusted callback URL → REDIRECT_URL_NOT_WHITELISTED, nothing mailed", async () => {
    const p = await createProject(server);
    await patchProjectConfig(server, p, {
      allow_localhost: false,
      domains: [{ domain: "https://app.example.com", handler_path: "/handler" }],
    });
    const email = uniqueEmail("untrusted");
    for (const url of ["https://evil.example.org/handler", CALLBACK]) {
      expectKnownError(await invite(p.server, { email, callback_url: url }), "REDIRECT_URL_NOT_WHITELISTED", 400);
    }
    const trusted = await invite(p.server, { email, callback_url: "https://app.example.com/handler/sign-in" });
    expect(trusted.status, trusted.text).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.text).toContain("https://app.example.com/handler/sign-in");
    expect(mail.text).not.toContain("evil");
  });

  it("client access → INSUFFICIENT_ACCESS_TYPE; schema errors", async () => {
    const res = await invite(project.client, { email: uniqueEmail("client"), callback_url: CALLBACK });
    expectKnownError(res, "INSUFFICIENT_ACCESS_TYPE", 401);
    expectSchemaError(await invite(project.server, { email: "not-an-email", callback_url: "nope" }), "POST", PATH, [
      "body.email must be a valid email",
      "body.callback_url is not a valid URL",
    ]);
    expectSchemaError(await invite(project.server, {}), "POST", PATH, ["body.email must be defined", "body.callback_url must be defined"]);
  });
});
