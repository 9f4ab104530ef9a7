/**
 * The Turnstile widget of @latchkey/react in a real browser: the demo app
 * (apps/demo) given a site key, against a real Latchkey server that verifies
 * tokens with a stand-in verification service on loopback. Cloudflare's
 * script is a third-party cloud API: the page gets a stand-in
 * `window.turnstile` with the same render/reset/remove calls, and the real
 * script's address is blocked.
 */
import { type Browser, type BrowserContext, type Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createMailingTestServer, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { startSiteverifyPeer, type SiteverifyPeer } from "../../../server/test/siteverify-peer.ts";
import { logPageErrors, startDemoApp, type DemoApp } from "./demo-app.ts";

const SITE_KEY = "1x00000000000000000000AA";

let peer: SiteverifyPeer;
let mailing: MailingServer;
let project: SdkProject;
let demo: DemoApp;
let browser: Browser;
let demoUrl: string;

/**
 * Stands in for Cloudflare's script: each widget shows a box and hands out
 * `<window.__turnstile.next>:<action>:<widget>:<n>` (none while next is
 * "never") a moment later, again after each reset; `delivered` lists the
 * tokens handed out so far.
 */
function fakeTurnstile(first: string) {
  type Options = { sitekey: string; action: string; callback: (token: string) => void };
  const state = { next: first, rendered: [] as { sitekey: string; action: string }[], issued: 0, delivered: [] as string[] };
  const widgets = new Map<string, Options>();
  const issue = (id: string) => {
    const options = widgets.get(id);
    if (!options || state.next === "never") return;
    state.issued += 1;
    const token = `${state.next}:${options.action}:${id}:${state.issued}`;
    setTimeout(() => {
      options.callback(token);
      state.delivered.push(token);
    }, 10);
  };
  (window as unknown as { __turnstile: typeof state }).__turnstile = state;
  (window as unknown as { turnstile: unknown }).turnstile = {
    render(container: HTMLElement, options: Options) {
      const id = String(state.rendered.length);
      state.rendered.push({ sitekey: options.sitekey, action: options.action });
      widgets.set(id, options);
      const box = document.createElement("span");
      box.dataset.fakeTurnstile = id;
      box.textContent = "Stand-in check";
      container.append(box);
      issue(id);
      return id;
    },
    reset: issue,
    remove(id: string) {
      widgets.delete(id);
      document.querySelector(`[data-fake-turnstile="${id}"]`)?.remove();
    },
  };
}

beforeAll(async () => {
  peer = await startSiteverifyPeer();
  peer.reply = ({ response }) => {
    const [verdict, action] = (response ?? "").split(":");
    return verdict === "pass"
      ? { json: { success: true, action, hostname: "127.0.0.1", "error-codes": [] } }
      : { json: { success: false, "error-codes": ["invalid-input-response"] } };
  };
  mailing = await createMailingTestServer({ botChallenge: { url: peer.url, secretKey: "browser-secret", timeoutMillis: 2000 } });
  const apiUrl = await mailing.server.listen();
  project = await createSdkProject(apiUrl, { magicLinkEnabled: true });

  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
    VITE_LATCHKEY_TURNSTILE_SITE_KEY: SITE_KEY,
  });
  demoUrl = demo.url;
  browser = demo.browser;
});

afterAll(async () => {
  await demo?.close();
  await mailing?.close();
  await peer?.close();
});

/** A fresh browser (no session) on `path`, with the stand-in script, recording the bodies sent to `apiPath`. */
async function openPage(
  path: string,
  apiPath: string,
  first = "pass",
): Promise<{ page: Page; context: BrowserContext; sent: Record<string, unknown>[] }> {
  const context = await browser.newContext();
  await context.route("https://challenges.cloudflare.com/**", (route) => route.abort());
  await context.addInitScript(fakeTurnstile, first);
  const page = logPageErrors(await context.newPage());
  const sent: Record<string, unknown>[] = [];
  page.on("request", (request) => {
    if (request.method() === "POST" && new URL(request.url()).pathname === `/api/v1${apiPath}`) sent.push(request.postDataJSON());
  });
  await page.goto(`${demoUrl}${path}`);
  return { page, context, sent };
}

/**
 * Waits until the stand-in has handed the page's latest widget a `verdict`
 * token. The page shows it before a click lands: Playwright clicks only once
 * the button has held still for two animation frames.
 */
async function tokenHandedOut(page: Page, verdict: string): Promise<void> {
  await page.waitForFunction((wanted) => {
    const state = (window as unknown as { __turnstile: { rendered: unknown[]; delivered: string[] } }).__turnstile;
    const widget = String(state.rendered.length - 1);
    return state.delivered.some((token) => {
      const [given, , id] = token.split(":");
      return given === wanted && id === widget;
    });
  }, verdict);
}

async function botScoreOf(email: string): Promise<number> {
  const res = await mailing.server.request("/users", {
    as: { type: "server", projectId: project.id, secretServerKey: project.secretServerKey },
    query: { query: email },
  });
  expect(res.body.items, res.text).toHaveLength(1);
  return res.body.items[0].risk_scores.sign_up.bot;
}

describe("the Turnstile widget in the demo app", () => {
  test("sign-up sends the widget's token as a visible challenge; a refused one shows the error and the widget gives a new token", async () => {
    const { page, context, sent } = await openPage("/handler/sign-up", "/auth/password/sign-up", "fail");
    await page.locator("[data-fake-turnstile]").waitFor();
    const rendered = await page.evaluate(() => (window as unknown as { __turnstile: { rendered: unknown[] } }).__turnstile.rendered);
    expect(rendered.at(-1)).toEqual({ sitekey: SITE_KEY, action: "sign_up_with_credential" });

    const email = uniqueEmail("turnstile");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    // The stand-in hands out its token a moment after rendering.
    await tokenHandedOut(page, "fail");
    // The widget already holds a failing token; the one it issues next will pass.
    await page.evaluate(() => ((window as unknown as { __turnstile: { next: string } }).__turnstile.next = "pass"));
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "bot challenge was not passed" }).waitFor();
    expect(sent.at(-1)).toMatchObject({
      email,
      bot_challenge_phase: "visible",
      bot_challenge_token: expect.stringMatching(/^fail:sign_up_with_credential:/),
    });

    // The form reset the widget after using its token, so it now holds a new, passing one.
    await tokenHandedOut(page, "pass");
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/");
    await page.getByText(`Signed in as ${email}`).waitFor();
    const last = sent.at(-1)!;
    expect(last).toMatchObject({
      bot_challenge_phase: "visible",
      bot_challenge_token: expect.stringMatching(/^pass:sign_up_with_credential:/),
    });
    expect(sent.filter((b) => b.bot_challenge_token === last.bot_challenge_token)).toHaveLength(1);
    // A visible pass is scored like the invisible step that failed before it.
    expect(await botScoreOf(email)).toBe(100);
    await context.close();
  });

  test("an unsolved widget keeps the form from being sent", async () => {
    const { page, context, sent } = await openPage("/handler/sign-up", "/auth/password/sign-up", "never");
    await page.locator("[data-fake-turnstile]").waitFor();
    await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("unsolved"));
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "Complete the check below first." }).waitFor();
    expect(sent).toEqual([]);
    await context.close();
  });

  test("the sign-in-code form sends its token with the code request", async () => {
    const { page, context, sent } = await openPage("/handler/sign-in", "/auth/otp/send-sign-in-code");
    await page.getByRole("button", { name: "Email me a sign-in code instead" }).click();
    await page.locator("[data-fake-turnstile]").waitFor();
    const email = uniqueEmail("code");
    await page.getByLabel("Email", { exact: true }).fill(email);
    await tokenHandedOut(page, "pass");
    await page.getByRole("button", { name: "Send sign-in code", exact: true }).click();
    await page
      .getByRole("status")
      .filter({ hasText: `We sent a sign-in code and link to ${email}` })
      .waitFor();
    expect(sent.at(-1)).toMatchObject({
      email,
      bot_challenge_phase: "visible",
      bot_challenge_token: expect.stringMatching(/^pass:send_magic_link_email:/),
    });
    await context.close();
  });
});
