/**
 * @latchkey/react in a real browser: the demo app (apps/demo) served by
 * Vite, against a real Latchkey server whose mail goes to a real SMTP peer,
 * driven in Chromium by playwright-core. No mocks. The tests are one user's
 * story and run in order, sharing the browser's cookies: sign up, verify the
 * e-mail, edit the profile, sign out, sign in again, add an address, reset
 * the password, sign in by magic link and by typed code, change the password.
 * First, what the project's pages show of it: its logo and name, and no dead
 * provider buttons.
 */
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { crc32, deflateSync } from "node:zlib";
import { type Browser, type BrowserContext, type Locator, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { freePort, type TestServer } from "../../../server/test/harness.ts";
import { createMailingTestServer, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { logPageErrors, repoRoot, startDemoApp, type DemoApp } from "./demo-app.ts";

const artifacts = join(repoRoot, "test-artifacts");

let mailing: MailingServer;
let server: TestServer;
let demo: DemoApp;
let browser: Browser;
let context: BrowserContext;
let page: Page;
let demoUrl: string;
let project: SdkProject;

const email = uniqueEmail("browser");
const NEW_PASSWORD = "a brand new passphrase";

beforeAll(async () => {
  // The server stores the project's logos and serves them from its own address: it must know the one it listens at.
  const port = await freePort();
  mailing = await createMailingTestServer({ apiUrl: `http://127.0.0.1:${port}` });
  server = mailing.server;
  const apiUrl = await server.listen(port);
  project = await createSdkProject(apiUrl, { magicLinkEnabled: true });

  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  demoUrl = demo.url;
  browser = demo.browser;
  context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  page = logPageErrors(await context.newPage());
  mkdirSync(artifacts, { recursive: true });

  await page.goto(`${demoUrl}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  await demo?.close();
  await mailing?.close();
});

/** Goes to `path` on the demo. */
async function visit(path: string): Promise<void> {
  await page.goto(`${demoUrl}${path}`);
}

async function waitForPath(path: string): Promise<void> {
  await page.waitForURL((url) => `${url.pathname}${url.search}` === path);
}

async function fillSignIn(password: string): Promise<void> {
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** Opens the link of the next mail to `to` whose subject matches. */
async function openMailedLink(to: string, subject: RegExp, page_: string): Promise<void> {
  const mail = await mailing.mailTo(to, subject);
  const { link } = linkIn(mail, `${demoUrl}${page_}`);
  await page.goto(link.toString());
}

async function signOutThroughMenu(): Promise<void> {
  await visit("/");
  await openAccountMenu();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await page.getByRole("link", { name: "Sign in" }).waitFor();
}

async function openAccountMenu(): Promise<void> {
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menu").waitFor();
}

/** The form refused a second password that differs from the first, without leaving the page. */
async function expectPasswordMismatch(path: string) {
  const alert = page.getByRole("alert").filter({ hasText: "Passwords do not match." });
  await alert.waitFor();
  expect((await alert.innerText()).trim()).toBe("Passwords do not match.");
  expect(new URL(page.url()).pathname).toBe(path);
}

/** A PNG of one colour as a data: URL: the server stores it and answers the address it serves it from. */
function pngUrl(width: number, height: number, [r, g, b]: [number, number, number]): string {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "ascii"), data]);
    const framed = Buffer.alloc(body.length + 8);
    framed.writeUInt32BE(data.length, 0);
    body.copy(framed, 4);
    framed.writeUInt32BE(crc32(body), body.length + 4);
    return framed;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // 8-bit RGB, no interlace
  const row = Buffer.concat([Buffer.from([0]), Buffer.from(Array.from({ length: width }, () => [r, g, b]).flat())]);
  const pixels = deflateSync(Buffer.concat(Array.from({ length: height }, () => row)));
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk("IHDR", header),
    chunk("IDAT", pixels),
    chunk("IEND", Buffer.alloc(0)),
  ]);
  return `data:image/png;base64,${png.toString("base64")}`;
}

/** Where the server serves an image it stored: its own address, by the hash of the content. */
const SERVED_IMAGE = /^http:\/\/127\.0\.0\.1:\d+\/api\/v1\/images\/[^/]+\/[^/]+\/[0-9a-f]{64}$/;

/** The image's width as the browser decoded it: 0 when it did not load. */
const loadedWidth = (image: Locator) => image.evaluate((img: HTMLImageElement) => (img.complete ? img.naturalWidth : 0));

describe("the demo app with @latchkey/react", () => {
  test("the project's pages show its logo and name, and sign-in no button for a provider the server has no keys for", async () => {
    const mark = pngUrl(32, 32, [15, 118, 110]);
    // GitHub as a shared provider, on a server with no shared GitHub keys: signing in with it could only fail.
    await project.project.update({ logoUrl: mark, config: { oauthProviders: [{ id: "github", type: "shared" }] } });
    await visit("/handler/sign-in");
    // The project's settings have arrived once the code option (magic links are on) shows.
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).waitFor();
    const brand = page.locator(".lk-brand");
    expect((await brand.innerText()).trim()).toBe("SDK test project");
    const markImage = brand.locator("img");
    expect(await markImage.getAttribute("src")).toMatch(SERVED_IMAGE);
    await expect.poll(() => loadedWidth(markImage)).toBe(32);
    expect(await page.getByRole("button", { name: /GitHub/ }).count()).toBe(0);

    // A full logo (mark and wordmark) takes the name's place, and says it in its alt text.
    const fullLogo = pngUrl(160, 40, [30, 58, 138]);
    await project.project.update({ logoFullUrl: fullLogo });
    await visit("/handler/sign-up");
    const logo = page.getByRole("img", { name: "SDK test project" });
    await logo.waitFor();
    const fullLogoSrc = await logo.getAttribute("src");
    expect(fullLogoSrc).toMatch(SERVED_IMAGE);
    await expect.poll(() => loadedWidth(logo)).toBe(160);
    expect(await page.locator(".lk-brand").innerText()).toBe("");
    await page.screenshot({ path: join(artifacts, "sign-up-logo.png"), fullPage: true });

    // The project's other pages show it too: the forgotten-password page, and a reset link that does not work.
    for (const path of ["/handler/forgot-password", "/handler/password-reset?code=not-a-code"]) {
      await visit(path);
      const brandLogo = page.locator(".lk-brand").getByRole("img", { name: "SDK test project" });
      await brandLogo.waitFor();
      expect(await brandLogo.getAttribute("src")).toBe(fullLogoSrc);
      expect(await page.getByRole("heading", { name: "Page not found" }).count()).toBe(0);
    }
  });

  test("signs up on /handler/sign-up (a repeated password that differs is refused first) and lands on the home page, signed in", async () => {
    await visit("/handler/sign-up");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(`${PASSWORD}x`);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await expectPasswordMismatch("/handler/sign-up");

    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();

    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("verifies the e-mail with the link the sign-up mailed", async () => {
    await openMailedLink(email, /Verify your e-mail/, "/handler/email-verification");
    await page.getByRole("button", { name: "Verify e-mail", exact: true }).click();
    await page.getByText("Your e-mail address is verified.").waitFor();
    // A second use of the same link is refused, in words.
    await page.reload();
    await page.getByRole("button", { name: "Verify e-mail", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "already been used" }).waitFor();
  });

  test("the user button opens a menu; account settings change the display name, which survives a reload", async () => {
    await visit("/");
    await openAccountMenu();
    expect(await page.getByRole("menuitem").allInnerTexts()).toEqual(
      expect.arrayContaining([expect.stringContaining("Account settings"), expect.stringContaining("Sign out")]),
    );
    await page.getByRole("menuitem", { name: "Account settings" }).click();
    await waitForPath("/handler/account-settings");

    const profile = page.locator("section").filter({ has: page.getByRole("heading", { name: "Profile" }) });
    const displayName = profile.getByLabel("Display name", { exact: true });
    await displayName.fill("Ada Lovelace");
    await profile.getByRole("button", { name: "Save", exact: true }).click();
    await profile.getByText("Saved.").waitFor();

    await page.reload();
    await expect.poll(() => page.getByLabel("Display name", { exact: true }).inputValue()).toBe("Ada Lovelace");
    await page.getByRole("heading", { name: "Active sessions" }).waitFor();
    await page.screenshot({ path: join(artifacts, "account-settings.png"), fullPage: true });
  });

  test("signs out through the user button's menu", async () => {
    await visit("/");
    await openAccountMenu();
    await page.getByRole("menuitem", { name: "Sign out" }).click();

    await waitForPath("/");
    await page.getByRole("link", { name: "Sign in" }).waitFor();
    expect(await page.getByText(`Signed in as ${email}`).count()).toBe(0);
  });

  test("signs in on /handler/sign-in; a wrong password is refused with an alert", async () => {
    await visit("/handler/sign-in");
    await page.getByRole("button", { name: "Sign in", exact: true }).waitFor();
    await page.screenshot({ path: join(artifacts, "sign-in.png"), fullPage: true });

    await fillSignIn("not the password 123");
    const alert = page.getByRole("alert").filter({ hasText: "Wrong e-mail or password." });
    await alert.waitFor();
    expect((await alert.innerText()).trim()).toBe("Wrong e-mail or password.");
    expect(new URL(page.url()).pathname).toBe("/handler/sign-in");

    await fillSignIn(PASSWORD);
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("/protected sends signed-out visitors to sign in, then back to /protected", async () => {
    await openAccountMenu();
    await page.getByRole("menuitem", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in" }).waitFor();

    await visit("/protected");
    await waitForPath("/handler/sign-in?after_auth_return_to=%2Fprotected");
    await fillSignIn(PASSWORD);

    await waitForPath("/protected");
    await page.getByText(`Protected page for ${email}`).waitFor();
  });

  test("adds a second e-mail in account settings and verifies it with the mailed link", async () => {
    const second = uniqueEmail("second");
    await visit("/handler/account-settings");
    const emails = page.locator("section").filter({ has: page.getByRole("heading", { name: "Emails" }) });
    await emails.getByText(email).waitFor();
    await emails.getByLabel("Add an e-mail address", { exact: true }).fill(second);
    await emails.getByRole("button", { name: "Add e-mail", exact: true }).click();
    await emails
      .getByRole("status")
      .filter({ hasText: `${second} was added` })
      .waitFor();
    await emails.getByRole("listitem").filter({ hasText: second }).getByText("Not verified").waitFor();

    await openMailedLink(second, /Verify your e-mail/, "/handler/email-verification");
    await page.getByRole("button", { name: "Verify e-mail", exact: true }).click();
    await page.getByText("Your e-mail address is verified.").waitFor();

    await visit("/handler/account-settings");
    const row = page.getByRole("listitem").filter({ hasText: second });
    await row.getByText("Verified", { exact: true }).waitFor();
    await page.screenshot({ path: join(artifacts, "account-settings-emails.png"), fullPage: true });
    await row.getByRole("button", { name: `Remove ${second}` }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `${second} was removed` })
      .waitFor();
    await expect.poll(() => page.getByRole("listitem").filter({ hasText: second }).count()).toBe(0);
  });

  test("turns marketing e-mails off in account settings; transactional mail cannot be turned off", async () => {
    await visit("/handler/account-settings");
    const section = page.locator("section").filter({ has: page.getByRole("heading", { name: "Email notifications" }) });
    const marketing = section.getByRole("checkbox", { name: "Marketing" });
    await expect.poll(() => marketing.isChecked()).toBe(true);
    expect(await section.getByRole("checkbox", { name: "Transactional" }).isDisabled()).toBe(true);
    await marketing.uncheck();
    await expect.poll(() => marketing.isChecked()).toBe(false);
    await page.reload();
    await expect.poll(() => page.getByRole("checkbox", { name: "Marketing" }).isChecked()).toBe(false);
  });

  test("resets a forgotten password with the mailed link, then signs in with the new one", async () => {
    await signOutThroughMenu();
    await visit("/handler/sign-in");
    await page.getByRole("link", { name: "Forgot your password?" }).click();
    await waitForPath("/handler/forgot-password");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send reset link", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `If an account uses ${email}` })
      .waitFor();

    await openMailedLink(email, /Reset your password/, "/handler/password-reset");
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Change password", exact: true }).click();
    await expectPasswordMismatch("/handler/password-reset");
    await page.getByLabel("Repeat password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByRole("button", { name: "Change password", exact: true }).click();
    await page.getByText("Your password was changed").waitFor();

    await page.getByRole("link", { name: "Sign in" }).click();
    await fillSignIn(NEW_PASSWORD);
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("signs in by magic link read from the SMTP peer", async () => {
    await signOutThroughMenu();
    await visit("/handler/sign-in");
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send sign-in code", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `We sent a sign-in code and link to ${email}` })
      .waitFor();
    await page.screenshot({ path: join(artifacts, "sign-in-code.png"), fullPage: true });

    await openMailedLink(email, /sign-in code/, "/handler/magic-link-callback");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("signs in with the code typed from the e-mail", async () => {
    await signOutThroughMenu();
    await visit("/handler/sign-in");
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByRole("button", { name: "Send sign-in code", exact: true }).click();
    const mail = await mailing.mailTo(email, /sign-in code/);
    const typed = /([0-9A-Z]{6})\s*$/.exec(mail.subject ?? "")?.[1];
    expect(typed, mail.subject).toBeTruthy();
    await page.getByLabel("Sign-in code", { exact: true }).fill(typed!.toLowerCase());
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await waitForPath("/");
    await page.getByText(`Signed in as ${email}`).waitFor();
  });

  test("account settings say a wrong current password is wrong, at its field; the right one changes the password", async () => {
    await visit("/handler/account-settings");
    const section = page.locator("section").filter({ has: page.getByRole("heading", { name: "Password" }) });
    const current = section.getByLabel("Current password", { exact: true });
    await current.fill("not my password at all");
    await section.getByLabel("New password", { exact: true }).fill("an even newer passphrase");
    await section.getByRole("button", { name: "Change password", exact: true }).click();

    const alert = section.getByRole("alert");
    await alert.waitFor();
    expect((await alert.innerText()).trim()).toBe("Your current password is incorrect.");
    // The words are the current-password field's description, and the field is marked invalid.
    expect(await current.getAttribute("aria-invalid")).toBe("true");
    expect(await current.evaluate((input) => document.getElementById(input.getAttribute("aria-describedby")!)?.textContent)).toBe(
      "Your current password is incorrect.",
    );
    await page.screenshot({ path: join(artifacts, "account-settings-wrong-password.png"), fullPage: true });

    await current.fill(NEW_PASSWORD);
    await section.getByRole("button", { name: "Change password", exact: true }).click();
    await section.getByRole("status").filter({ hasText: "Password changed." }).waitFor();
    expect(await section.getByRole("alert").count()).toBe(0);
    expect(await current.getAttribute("aria-invalid")).toBeNull();
  });
});
