/**
 * The building blocks an app composes its own pages from, in Chromium: the
 * demo app's /components page (apps/demo) shows one at a time under a
 * StackTheme, against a real server whose mail goes to a real SMTP peer —
 * CredentialSignUp, CredentialSignIn, MagicLinkSignIn, AuthPage by type,
 * MessageCard, UserAvatar and TeamSwitcher; and the onboarding page a user
 * whose e-mail is unverified is sent to.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createMailingTestServer, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { startDemoApp, type DemoApp } from "./demo-app.ts";

let mailing: MailingServer;
let project: SdkProject;
let demo: DemoApp;
const email = uniqueEmail("parts");

beforeAll(async () => {
  mailing = await createMailingTestServer();
  const apiUrl = await mailing.server.listen();
  project = await createSdkProject(apiUrl, { magicLinkEnabled: true });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
});

afterAll(async () => {
  await demo?.close();
  await mailing?.close();
});

async function show(page: Page, component: string): Promise<void> {
  await page.goto(`${demo.url}/components?show=${component}`);
  await page.getByRole("heading", { name: "Components" }).waitFor();
}

const signedInHome = (page: Page, address: string) => page.getByText(`Signed in as ${address}`, { exact: true }).waitFor();

/** The 6 characters of a sign-in mail's code, which its subject ends with. */
async function mailedCode(to: string): Promise<string> {
  const mail = await mailing.mailTo(to, /sign-in code/);
  const code = /([0-9A-Z]{6})\s*$/.exec(mail.subject ?? "")?.[1];
  if (!code) throw new Error(`No code in the subject of the mail to ${to}: ${mail.subject}`);
  return code;
}

describe("the components an app composes its own pages from", () => {
  test("CredentialSignUp with noPasswordRepeat asks for the password once and signs up", async () => {
    const page = await demo.openPage();
    await show(page, "credential-sign-up");
    expect(await page.getByLabel("Repeat password").count()).toBe(0);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await signedInHome(page, email);
  });

  test("CredentialSignIn signs in; UserAvatar shows the user's initials and TeamSwitcher their teams", async () => {
    const page = await demo.openPage();
    await show(page, "credential-sign-in");
    const avatar = page.getByRole("img", { name: "No user" });
    await expect.poll(() => avatar.textContent()).toBe("?");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill("not the password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." }).waitFor();
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await signedInHome(page, email);

    await show(page, "message-card");
    const initials = email.replace(/@.*/, "").split(/[\s._-]+/);
    await expect
      .poll(() => page.getByRole("img", { name: email }).textContent())
      .toBe(((initials[0]?.[0] ?? "") + (initials[1]?.[0] ?? "")).toUpperCase());
    expect(await page.getByRole("img", { name: email }).evaluate((element) => getComputedStyle(element).width)).toBe("48px");
    await page
      .getByRole("main")
      .getByRole("button", { name: /^Select(ed)? (a )?team/ })
      .click();
    await page.getByRole("menu", { name: "Teams" }).waitFor();
  });

  test("MessageCard shows its message and runs its buttons' actions, themed by StackTheme", async () => {
    const page = await demo.openPage();
    await show(page, "message-card");
    await page.getByRole("heading", { name: "Almost there" }).waitFor();
    await page.getByText("Clicked: nothing").waitFor();
    await page.getByRole("button", { name: "Continue", exact: true }).click();
    await page.getByText("Clicked: continue").waitFor();
    await page.getByRole("button", { name: "Back", exact: true }).click();
    await page.getByText("Clicked: back").waitFor();
    const style = await page
      .getByRole("button", { name: "Continue", exact: true })
      .evaluate((element) => ({ background: getComputedStyle(element).backgroundColor, radius: getComputedStyle(element).borderRadius }));
    expect(style).toEqual({ background: "rgb(190, 24, 93)", radius: "2px" });
    // Outside the theme, the default colours stay.
    await page.goto(`${demo.url}/handler/sign-in`);
    const plain = await page
      .getByRole("button", { name: "Sign in", exact: true })
      .evaluate((element) => getComputedStyle(element).backgroundColor);
    expect(plain).not.toBe("rgb(190, 24, 93)");
  });

  test("MagicLinkSignIn mails a code that signs the user in (here signing a new address up)", async () => {
    const page = await demo.openPage();
    const address = uniqueEmail("code");
    await show(page, "magic-link-sign-in");
    await page.getByLabel("Email", { exact: true }).fill(address);
    await page.getByRole("button", { name: "Send sign-in code", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `We sent a sign-in code and link to ${address}.` })
      .waitFor();
    await page.getByLabel("Sign-in code", { exact: true }).fill(await mailedCode(address));
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await signedInHome(page, address);
  });

  test("AuthPage is the sign-in page (here opening on the code form) or the sign-up page, by type", async () => {
    const page = await demo.openPage();
    await show(page, "sign-in-page");
    await page.getByRole("heading", { name: "Sign in" }).waitFor();
    await page.getByRole("button", { name: "Send sign-in code", exact: true }).waitFor();
    await page.getByRole("button", { name: "Sign in with a password instead" }).click();
    await page.getByLabel("Password", { exact: true }).waitFor();

    await show(page, "sign-up-page");
    await page.getByRole("heading", { name: "Create an account" }).waitFor();
    await page.getByText("By signing up you accept the terms.").waitFor();
    const other = uniqueEmail("page");
    await page.getByLabel("Email", { exact: true }).fill(other);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(`${PASSWORD}!`);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Passwords do not match." }).waitFor();
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await signedInHome(page, other);
  });
});

describe("the onboarding page", () => {
  test("asks a user whose e-mail is unverified to verify it, mails the link again, then lets them through", async () => {
    await project.project.update({ config: { requireEmailVerification: true } });
    const page = await demo.openPage();
    const unverified = uniqueEmail("onboard");
    await show(page, "credential-sign-up");
    await page.getByLabel("Email", { exact: true }).fill(unverified);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL(`${demo.url}/`);
    const signUpMail = await mailing.mailTo(unverified);

    await page.goto(`${demo.url}/handler/onboarding`);
    await page.getByRole("heading", { name: "Verify your e-mail" }).waitFor();
    await page.getByText(`To continue, open the link we sent to ${unverified}.`, { exact: false }).waitFor();
    await page.getByRole("button", { name: "Send the link again", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `We sent a new link to ${unverified}.` })
      .waitFor();
    const again = await mailing.mailTo(unverified);
    expect(again).not.toBe(signUpMail);

    const link = /https?:\/\/\S+email-verification\S*/.exec(again.text ?? "")?.[0];
    expect(link).toBeTruthy();
    await page.goto(link!);
    await page.getByRole("button", { name: "Verify e-mail", exact: true }).click();
    await page.getByText("Your e-mail address is verified.").waitFor();

    await page.goto(`${demo.url}/handler/onboarding`);
    await page.waitForURL(`${demo.url}/`);
    await signedInHome(page, unverified);
  });
});
