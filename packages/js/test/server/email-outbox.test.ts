/** The dev outbox through the admin app: without an SMTP server, a magic link's mail is readable, link included. */
import { afterAll, beforeAll, expect, it } from "vitest";
import { StackClientApp } from "../../src/index.ts";
import { type SdkProject, startServerWithProject } from "./fixtures.ts";
import { uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject({ magicLinkEnabled: true })));
afterAll(() => server?.close());

it("lists outbox mail with its rendered body, and the status in the sent list", async () => {
  const client = new StackClientApp({
    baseUrl,
    projectId: project.id,
    publishableClientKey: project.publishableClientKey,
    tokenStore: "memory",
  });
  const email = uniqueEmail();
  const callbackUrl = "http://localhost:3000/handler/magic-link-callback";
  await client.sendMagicLinkEmail(email, { callbackUrl });
  await server.instance.services.emails.flush();
  const admin = project.project.app;
  const [mail] = await admin.listOutboxEmails();
  expect(mail).toMatchObject({ to: [email] });
  expect(mail!.sentAt).toBeInstanceOf(Date);
  expect(mail!.html).toContain(`href="${callbackUrl}?code=`);
  expect(mail!.text).toContain(callbackUrl);
  const sent = await admin.listSentEmails();
  expect(sent.find((s) => s.id === mail!.id)).toMatchObject({ status: "outbox", error: null });
});
