/**
 * The SDK's mailed-code flows against a real server whose mail goes to a
 * real SMTP peer: magic links and typed codes, e-mail verification, password
 * reset, and contact channels for the signed-in user and on the server.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { ContactChannel, KnownErrors, StackAdminApp, StackClientApp, StackServerApp } from "../../src/index.ts";
import { CALLBACK_URL, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { createSdkProject, type SdkProject, startMailingServerWithProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail } from "./support.ts";

let mailing: MailingServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ mailing, baseUrl, project } = await startMailingServerWithProject({ magicLinkEnabled: true })));
afterAll(() => mailing?.close());

function clientApp() {
  return new StackClientApp({ baseUrl, projectId: project.id, publishableClientKey: project.publishableClientKey, tokenStore: "memory" });
}

function serverApp() {
  return new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });
}

async function signedUp(email = uniqueEmail(), options: { verificationCallbackUrl?: string } = {}) {
  const app = clientApp();
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, ...options });
  expect(result.status).toBe("ok");
  return { app, email, user: await app.getUser({ or: "throw" }) };
}

/** The project's own SMTP settings, pointing at this file's test peer (edited templates go out only through a project's own server). */
function peerEmailConfig() {
  return {
    type: "standard",
    host: "127.0.0.1",
    port: mailing.smtp.port,
    username: "",
    password: "",
    senderName: "Shop",
    senderEmail: "shop@example.com",
  };
}

describe("magic links and typed codes", () => {
  it("signs a new user up by the typed code (any case), and an existing one in by the link", async () => {
    const app = clientApp();
    const email = uniqueEmail("otp");
    const sent = await app.sendMagicLinkEmail(email, { callbackUrl: CALLBACK_URL });
    if (sent.status !== "ok") throw sent.error;
    expect(sent.data.nonce).toHaveLength(39);
    const mail = await mailing.mailTo(email);
    const typed = linkIn(mail).code.slice(0, 6);
    expect(mail.subject).toContain(typed.toUpperCase());
    expect(await app.signInWithMagicLink(` ${typed.toUpperCase()} ${sent.data.nonce.toUpperCase()}`, { noRedirect: true })).toEqual({
      status: "ok",
      data: undefined,
    });
    const user = await app.getUser({ or: "throw" });
    expect(user).toMatchObject({ primaryEmail: email, primaryEmailVerified: true, otpAuthEnabled: true });

    const again = clientApp();
    expect((await again.sendMagicLinkEmail(email, { callbackUrl: CALLBACK_URL })).status).toBe("ok");
    const { code } = linkIn(await mailing.mailTo(email));
    expect(await again.signInWithMagicLink(code, { noRedirect: true })).toEqual({ status: "ok", data: undefined });
    expect((await again.getUser({ or: "throw" })).id).toBe(user.id);
  });

  it("answers a spent or unknown code with an error Result, and needs a callback URL outside a browser", async () => {
    const app = clientApp();
    const used = await app.signInWithMagicLink("0".repeat(45), { noRedirect: true });
    expect(used.status === "error" && used.error).toBeInstanceOf(KnownErrors.VerificationCodeNotFound);
    await expect(app.sendMagicLinkEmail(uniqueEmail())).rejects.toThrow(/pass callbackUrl/);
    const untrusted = await app.sendMagicLinkEmail(uniqueEmail(), { callbackUrl: "https://evil.example.com/cb" });
    expect(untrusted.status === "error" && untrusted.error).toBeInstanceOf(KnownErrors.RedirectUrlNotWhitelisted);
  });
});

describe("e-mail verification", () => {
  it("verifies the primary e-mail with the code the sign-up mailed, and mails another link on request", async () => {
    const { app, email, user } = await signedUp(uniqueEmail("verify"), { verificationCallbackUrl: CALLBACK_URL });
    expect(user.primaryEmailVerified).toBe(false);
    const { code } = linkIn(await mailing.mailTo(email));
    expect(await app.verifyEmail(code)).toEqual({ status: "ok", data: undefined });
    expect((await app.getUser({ or: "throw" })).primaryEmailVerified).toBe(true);
    const twice = await app.verifyEmail(code);
    expect(twice.status === "error" && twice.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);

    const other = await signedUp();
    await other.user.sendVerificationEmail({ callbackUrl: CALLBACK_URL });
    const { code: second } = linkIn(await mailing.mailTo(other.email));
    expect((await clientApp().verifyEmail(second)).status).toBe("ok");
  });
});

describe("password reset", () => {
  it("checks the mailed code, resets the password and signs in with the new one", async () => {
    const { email } = await signedUp(uniqueEmail("reset"));
    const app = clientApp();
    expect(await app.sendForgotPasswordEmail(email, { callbackUrl: CALLBACK_URL })).toEqual({ status: "ok", data: undefined });
    const { code } = linkIn(await mailing.mailTo(email));
    expect(await app.verifyPasswordResetCode(code)).toEqual({ status: "ok", data: undefined });
    const weak = await app.resetPassword({ code, password: "x" });
    expect(weak.status === "error" && weak.error).toBeInstanceOf(KnownErrors.PasswordRequirementsNotMet);
    expect(await app.resetPassword({ code, password: "a brand new passphrase" })).toEqual({ status: "ok", data: undefined });
    const spent = await app.verifyPasswordResetCode(code);
    expect(spent.status === "error" && spent.error).toBeInstanceOf(KnownErrors.VerificationCodeAlreadyUsed);
    expect((await app.signInWithCredential({ email, password: "a brand new passphrase", noRedirect: true })).status).toBe("ok");
  });
});

describe("contact channels", () => {
  it("lets the signed-in user add, verify, make primary and remove addresses", async () => {
    const { email, user } = await signedUp();
    const second = uniqueEmail("second");
    const channel = await user.createContactChannel({ type: "email", value: second, usedForAuth: false });
    expect(channel).toBeInstanceOf(ContactChannel);
    expect(channel).toMatchObject({ value: second, isPrimary: false, isVerified: false, usedForAuth: false });
    await channel.sendVerificationEmail({ callbackUrl: CALLBACK_URL });
    const { code } = linkIn(await mailing.mailTo(second));
    expect((await clientApp().verifyEmail(code)).status).toBe("ok");

    const listed = await user.listContactChannels();
    expect(listed.map((c) => [c.value, c.isPrimary, c.isVerified])).toEqual([
      [email, true, false],
      [second, false, true],
    ]);
    await listed[1]!.update({ isPrimary: true });
    const app = clientApp();
    await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true });
    expect((await app.getUser({ or: "throw" })).primaryEmail).toBe(second);
    await (await user.listContactChannels()).find((c) => c.value === email)!.delete();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual([second]);
  });

  it("lets the server add a verified address to any user", async () => {
    const { user } = await signedUp();
    const serverUser = (await serverApp().getUser(user.id))!;
    const value = uniqueEmail("server");
    const channel = await serverUser.createContactChannel({ type: "email", value, usedForAuth: false, isVerified: true });
    expect(channel).toMatchObject({ value, isVerified: true });
    expect((await serverUser.listContactChannels()).map((c) => c.value)).toContain(value);
    await expect(channel.sendVerificationEmail()).rejects.toThrow(/callbackUrl/);
  });
});

describe("notification preferences and sending mail", () => {
  async function ownServerProject() {
    const emailConfig = peerEmailConfig();
    return createSdkProject(baseUrl, { emailConfig });
  }

  it("lets a user turn marketing mail off; the server's marketing mail then skips them, transactional mail still arrives", async () => {
    const own = await ownServerProject();
    const app = new StackClientApp({ baseUrl, projectId: own.id, publishableClientKey: own.publishableClientKey, tokenStore: "memory" });
    const email = uniqueEmail("prefs");
    expect((await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const user = await app.getUser({ or: "throw" });

    const categories = await user.listNotificationCategories();
    expect(categories.map((c) => [c.name, c.enabled, c.canDisable]).sort()).toEqual([
      ["Marketing", true, true],
      ["Transactional", true, false],
    ]);
    await categories.find((c) => c.name === "Marketing")!.setEnabled(false);
    expect((await user.listNotificationCategories()).find((c) => c.name === "Marketing")!.enabled).toBe(false);
    await expect(categories.find((c) => c.name === "Transactional")!.setEnabled(false)).rejects.toThrow();

    const server = new StackServerApp({ baseUrl, projectId: own.id, secretServerKey: own.secretServerKey });
    expect(
      await server.sendEmail({ userIds: [user.id], html: "<p>Sale</p>", subject: "Sale", notificationCategoryName: "Marketing" }),
    ).toEqual([{ userId: user.id }]);
    const sent = await server.sendEmail({ userIds: [user.id], html: "<p>Thanks for your order.</p>", subject: "Your receipt" });
    expect(sent).toEqual([{ userId: user.id }]);
    expect((await mailing.mailTo(email, /Your receipt/)).html).toContain("Thanks for your order.");
    // What became of each copy is in the sent-mail list.
    const admin = new StackAdminApp({ baseUrl, projectId: own.id, superSecretAdminKey: own.superSecretAdminKey });
    const sale = (await admin.listSentEmails()).find((e) => e.subject === "Sale");
    expect(sale).toMatchObject({ to: [email], status: "skipped", error: "The user turned this notification category off." });
  });

  it("refuses to send through the platform's shared server", async () => {
    const { user } = await signedUp();
    await expect(serverApp().sendEmail({ userIds: [user.id], html: "<p>Hi</p>", subject: "Hi" })).rejects.toBeInstanceOf(
      KnownErrors.RequiresCustomEmailServer,
    );
  });
});

describe("the admin app's e-mail tools", () => {
  const template = (text: string) => `import { Text } from "@react-email/components";
export const subject = "Welcome aboard";
export function EmailTemplate({ variables }) {
  return <><Text>${text}</Text><a href={variables.link}>Verify</a></>;
}
`;

  it("edits the verification template (which then goes out), keeps themes and drafts, previews and lists sent mail", async () => {
    // Edited templates go out only through the project's own SMTP server (here the same test peer).
    const emailConfig = peerEmailConfig();
    const own = await createSdkProject(baseUrl, { emailConfig });
    const admin = new StackAdminApp({ baseUrl, projectId: own.id, superSecretAdminKey: own.superSecretAdminKey });
    const onShared = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });

    const themes = await admin.listEmailThemes();
    expect(themes.map((t) => t.displayName).sort()).toEqual(["Default Colorful", "Default Dark", "Default Light"]);
    const { id: themeId } = await admin.createEmailTheme("Brand");
    await admin.updateEmailTheme(themeId, { displayName: "Brand 2" });
    expect(await admin.getEmailTheme(themeId)).toMatchObject({
      id: themeId,
      displayName: "Brand 2",
      tsxSource: expect.stringContaining("EmailTheme"),
    });

    const templates = await admin.listEmailTemplates();
    expect(templates.map((t) => t.id).sort()).toEqual(Object.values(DEFAULT_EMAIL_TEMPLATE_IDS).sort());

    await expect(onShared.createEmailTemplate("Newsletter")).rejects.toBeInstanceOf(KnownErrors.RequiresCustomEmailServer);
    expect((await admin.createEmailTemplate("Newsletter")).id).toMatch(/^[0-9a-f-]{36}$/);
    await expect(
      admin.updateEmailTemplate(DEFAULT_EMAIL_TEMPLATE_IDS.email_verification, { tsxSource: "export function EmailTemplate( {" }),
    ).rejects.toBeInstanceOf(KnownErrors.EmailRenderingError);
    const saved = await admin.updateEmailTemplate(DEFAULT_EMAIL_TEMPLATE_IDS.email_verification, {
      tsxSource: template("Glad you joined us"),
      themeId: false,
    });
    expect(saved.renderedHtml).toContain("Glad you joined us");
    expect(await admin.getEmailTemplate(DEFAULT_EMAIL_TEMPLATE_IDS.email_verification)).toMatchObject({ themeId: false });

    const app = new StackClientApp({ baseUrl, projectId: own.id, publishableClientKey: own.publishableClientKey, tokenStore: "memory" });
    const email = uniqueEmail("templated");
    expect(
      (await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true, verificationCallbackUrl: CALLBACK_URL })).status,
    ).toBe("ok");
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Welcome aboard");
    expect(mail.html).toContain("Glad you joined us");
    expect((await app.verifyEmail(linkIn(mail).code)).status).toBe("ok");
    expect((await admin.listSentEmails()).map((e) => e.subject)).toContain("Welcome aboard");

    const { id: draftId } = await admin.createEmailDraft({ displayName: "Launch", tsxSource: template("We launched") });
    await admin.updateEmailDraft(draftId, { displayName: "Launch day", themeId });
    expect(await admin.getEmailDraft(draftId)).toMatchObject({ displayName: "Launch day", themeId, sentAt: null });
    // Deleting the theme hands what it framed to the project's selected theme; the selected one cannot go.
    await admin.deleteEmailTheme(themeId);
    expect((await admin.listEmailThemes()).map((t) => t.id)).not.toContain(themeId);
    expect(await admin.getEmailDraft(draftId)).toMatchObject({ themeId: null });
    await expect(admin.deleteEmailTheme(themes[0]!.id)).rejects.toThrow(/currently active email theme/);
    await expect(admin.deleteEmailTheme(themeId)).rejects.toThrow(/No theme found with given id/);
    expect((await admin.listEmailDrafts()).map((d) => d.id)).toEqual([draftId]);
    await admin.deleteEmailDraft(draftId);
    expect(await admin.listEmailDrafts()).toEqual([]);

    const preview = await admin.getEmailPreview({
      templateTsxSource: template("Just a preview"),
      themeId: false,
      variables: { link: "https://example.com/x" },
    });
    expect(preview.subject).toBe("Welcome aboard");
    expect(preview.html).toContain("Just a preview");

    const tested = await admin.sendTestEmail({
      recipientEmail: "admin@example.com",
      emailConfig: {
        host: "127.0.0.1",
        port: mailing.smtp.port,
        username: "",
        password: "",
        senderEmail: "shop@example.com",
        senderName: "Shop",
      },
    });
    expect(tested).toEqual({ success: true, errorMessage: null });
    // Through the shared server, the project's own delivery path: listed with its mail.
    const viaShared = await admin.sendTestEmail({ recipientEmail: "shared-test@example.com", emailConfig: { type: "shared" } });
    expect(viaShared).toEqual({ success: true, errorMessage: null, deliveredTo: "smtp" });
    expect((await mailing.mailTo("shared-test@example.com")).subject).toBe("Test e-mail");
    expect((await admin.listSentEmails()).find((e) => e.to.includes("shared-test@example.com"))?.status).toBe("sent");
  });

  it("sends a sign-in invitation linking a trusted callback URL; an untrusted one is refused", async () => {
    const admin = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: project.superSecretAdminKey });
    const email = uniqueEmail("invited");
    await admin.sendSignInInvitationEmail(email, "http://localhost:3000/handler/sign-in");
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toMatch(/^You are invited to sign in to /);
    expect(mail.text).toContain("http://localhost:3000/handler/sign-in");
    await expect(admin.sendSignInInvitationEmail(email, "https://evil.example.org/x")).rejects.toBeInstanceOf(
      KnownErrors.RedirectUrlNotWhitelisted,
    );
  });
});
