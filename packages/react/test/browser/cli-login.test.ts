/**
 * CLI login, the whole story: a real Node process (fixtures/cli-login-process.ts)
 * calls promptCliLogin against a real server and prints its link; the link
 * opens the demo app's confirmation page in Chromium; the user authorizes;
 * the process receives a refresh token that signs it in as that user. Once
 * signed in beforehand, once signed out (sent to sign in, brought back, and
 * the page finishes on its own), and once for a CLI that came with an
 * anonymous session (sent to sign up). Also: focus follows the steps, a
 * restricted user is told why, and the remembered click is forgotten when
 * the flow ends or another login's link opens. Each test has its own user.
 * Screenshots go to test-artifacts/.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { createInterface } from "node:readline";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { clientAppOf, createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, uniqueEmail } from "../../../js/test/server/support.ts";
import { createTestServer, type TestServer } from "../../../server/test/harness.ts";
import { repoRoot, signUpInDemo, startDemoApp, type DemoApp } from "./demo-app.ts";

const screenshots = join(repoRoot, "test-artifacts");
const cliScript = join(repoRoot, "packages", "react", "test", "browser", "fixtures", "cli-login-process.ts");

let server: TestServer;
let apiUrl: string;
let project: SdkProject;
let demo: DemoApp;
const processes: ChildProcess[] = [];

beforeAll(async () => {
  server = await createTestServer();
  apiUrl = await server.listen();
  project = await createSdkProject(apiUrl);
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
  mkdirSync(screenshots, { recursive: true });
  const page = await openPage();
  await page.goto(`${demo.url}/`);
  await page.getByRole("link", { name: "Sign in" }).waitFor();
});

afterAll(async () => {
  for (const child of processes) if (child.exitCode === null) child.kill();
  await demo?.close();
  await server?.close();
});

function openPage(): Promise<Page> {
  return demo.openPage({ width: 1000, height: 800 });
}

interface CliProcess {
  /** The link the process shows its user. */
  link: Promise<string>;
  /** What the process printed last: `REFRESH_TOKEN <token>` or `ERROR <code> <message>`, once it exits. */
  outcome: Promise<{ refreshToken: string } | { error: string }>;
}

/** Starts the CLI in its own Node process, with nothing but the project id and publishable key. */
function startCli(): CliProcess {
  const child = spawn(process.execPath, ["--conditions=latchkey-source", "--import", "tsx", cliScript], {
    cwd: repoRoot,
    env: {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      LATCHKEY_API_URL: apiUrl,
      LATCHKEY_PROJECT_ID: project.id,
      LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
      APP_URL: demo.url,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  processes.push(child);
  let stderr = "";
  child.stderr!.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
  const lines: string[] = [];
  let linkSeen: (url: string) => void = () => {};
  const link = new Promise<string>((resolve) => (linkSeen = resolve));
  createInterface({ input: child.stdout! }).on("line", (line) => {
    lines.push(line);
    if (line.startsWith("LINK ")) linkSeen(line.slice("LINK ".length));
  });
  const outcome = new Promise<{ refreshToken: string } | { error: string }>((resolve, reject) => {
    child.on("error", reject);
    child.on("close", (code) => {
      const last = lines.at(-1) ?? "";
      if (code === 0 && last.startsWith("REFRESH_TOKEN ")) resolve({ refreshToken: last.slice("REFRESH_TOKEN ".length) });
      else if (last.startsWith("ERROR ")) resolve({ error: last.slice("ERROR ".length) });
      else reject(new Error(`The CLI process exited with ${code}:\n${lines.join("\n")}\n${stderr}`));
    });
  });
  // A process that dies before printing its link fails the test instead of leaving it waiting.
  void outcome.catch(() => {});
  return {
    link: Promise.race([link, outcome.then(() => Promise.reject(new Error("The CLI process ended before showing a link.")))]),
    outcome,
  };
}

/** Who the refresh token signs in (read through the SDK, as the CLI would next). */
async function emailOfRefreshToken(refreshToken: string): Promise<string | null> {
  const app = clientAppOf(apiUrl, project);
  await app.signInWithTokens({ accessToken: null, refreshToken });
  return (await app.getUser({ or: "throw" })).primaryEmail;
}

const clientAuth = () => ({ type: "client" as const, projectId: project.id, publishableClientKey: project.publishableClientKey });

/** A user made through the API (e-mail and password), for a test to sign in with. */
async function apiUser(): Promise<{ email: string; userId: string; refreshToken: string }> {
  const email = uniqueEmail("cli");
  const res = await server.request("/auth/password/sign-up", { method: "POST", as: clientAuth(), body: { email, password: PASSWORD } });
  expect(res.status, res.text).toBe(200);
  return { email, userId: res.body.user_id, refreshToken: res.body.refresh_token };
}

async function signInInBrowser(page: Page, email: string): Promise<void> {
  await page.goto(`${demo.url}/handler/sign-in`);
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await page.waitForURL(`${demo.url}/`);
}

/** A CLI login started directly (as a CLI would), and its link. */
async function startedLogin(body: Record<string, unknown> = {}): Promise<{ pollingCode: string; link: string }> {
  const res = await server.request("/auth/cli", { method: "POST", as: clientAuth(), body });
  expect(res.status, res.text).toBe(200);
  return { pollingCode: res.body.polling_code, link: `${demo.url}/handler/cli-auth-confirm?login_code=${res.body.login_code}` };
}

/** Waits until the page's heading with this text has the focus. */
async function headingFocused(page: Page, name: string): Promise<void> {
  await page.waitForFunction((text) => document.activeElement?.tagName === "H1" && document.activeElement.textContent === text, name);
}

const confirmedFlag = (page: Page) => page.evaluate(() => sessionStorage.getItem("stack-cli-auth-confirmed"));

describe("CLI login in the demo app", () => {
  test("a signed-in user authorizes the CLI; the process receives a session of that user", async () => {
    const email = uniqueEmail("cli");
    const page = await openPage();
    await signUpInDemo(page, demo, email);

    const cli = startCli();
    const link = await cli.link;
    expect(link).toMatch(new RegExp(`^${demo.url}/handler/cli-auth-confirm\\?login_code=[0-9a-hjkmnp-tv-z]{45}$`));
    await page.goto(link);
    await page.getByRole("heading", { name: "Authorize CLI Application" }).waitFor();
    await page.getByText(`asks to sign in to your account (${email}). Authorize it to let it act as you.`, { exact: false }).waitFor();
    await page.screenshot({ path: join(screenshots, "cli-auth-confirm.png") });

    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.getByRole("heading", { name: "CLI Authorization Successful" }).waitFor();
    // The clicked button is gone: the focus is on the new heading, and the live region says what happened.
    await headingFocused(page, "CLI Authorization Successful");
    await page.getByRole("status").filter({ hasText: "The command line application is now signed in as you." }).waitFor();
    await page.screenshot({ path: join(screenshots, "cli-auth-confirm-success.png") });

    const outcome = await cli.outcome;
    expect(outcome).toHaveProperty("refreshToken");
    expect(await emailOfRefreshToken((outcome as { refreshToken: string }).refreshToken)).toBe(email);

    // The link is spent: opening it again and authorizing fails with the server's words.
    await page.goto(link);
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.getByRole("heading", { name: "Authorization Failed" }).waitFor();
    await page
      .getByRole("alert")
      .filter({ hasText: "Failed to authorize the CLI application: This CLI login link is not valid" })
      .waitFor();
    await headingFocused(page, "Authorization Failed");
    await page.getByRole("button", { name: "Try Again", exact: true }).click();
    await page.getByRole("heading", { name: "Authorize CLI Application" }).waitFor();
    await headingFocused(page, "Authorize CLI Application");
  });

  test("signed out, the user is sent to sign in, comes back, and the page finishes on its own", async () => {
    const { email } = await apiUser();
    const page = await openPage();
    const cli = startCli();
    const link = await cli.link;
    await page.goto(link);
    await page.getByRole("button", { name: "Authorize", exact: true }).click();

    await page.waitForURL((url) => url.pathname === "/handler/sign-in");
    const back = new URL(link);
    expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe(`${back.pathname}${back.search}`);
    await page.getByLabel("Email", { exact: true }).fill(email);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();

    await page.waitForURL(link);
    await page.getByRole("heading", { name: "CLI Authorization Successful" }).waitFor();
    expect(await confirmedFlag(page)).toBeNull();
    const outcome = await cli.outcome;
    expect(outcome).toHaveProperty("refreshToken");
    expect(await emailOfRefreshToken((outcome as { refreshToken: string }).refreshToken)).toBe(email);
  });

  test("a CLI that came with an anonymous session: the signed-out visitor takes it over and is sent to sign up", async () => {
    const anon = await server.request("/auth/anonymous/sign-up", { method: "POST", as: clientAuth() });
    const cliRefreshToken = anon.body.refresh_token as string;
    const { pollingCode, link } = await startedLogin({ anon_refresh_token: cliRefreshToken });
    const cliSessionWorks = async () =>
      (
        await server.request("/auth/sessions/current/refresh", {
          method: "POST",
          as: clientAuth(),
          headers: { "x-stack-refresh-token": cliRefreshToken },
        })
      ).status === 200;

    const page = await openPage();
    await page.goto(link);
    await page.getByText("you will be asked to sign in or to create an account", { exact: false }).waitFor();
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page.waitForURL((url) => url.pathname === "/handler/sign-up");
    // The browser holds the CLI's own anonymous session (as the reference's claim answers it), which still works.
    expect(await cliSessionWorks()).toBe(true);
    expect(new URL(page.url()).searchParams.get("after_auth_return_to")).toBe(`${new URL(link).pathname}${new URL(link).search}`);
    const newEmail = uniqueEmail("cli-anon");
    await page.getByLabel("Email", { exact: true }).fill(newEmail);
    await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
    await page.getByLabel("Repeat password", { exact: true }).fill(PASSWORD);
    await page.getByRole("button", { name: "Sign up", exact: true }).click();

    await page.waitForURL(link);
    await page.getByRole("heading", { name: "CLI Authorization Successful" }).waitFor();
    expect(await confirmedFlag(page)).toBeNull();
    const polled = await server.request("/auth/cli/poll", { method: "POST", as: clientAuth(), body: { polling_code: pollingCode } });
    expect(polled.status, polled.text).toBe(201);
    expect(await emailOfRefreshToken(polled.body.refresh_token)).toBe(newEmail);
    // The anonymous user the CLI came with is the one who signed up.
    expect(await emailOfRefreshToken(cliRefreshToken)).toBe(newEmail);
  });

  test("a user restricted by an administrator is told why the CLI cannot be authorized", async () => {
    const { email, userId } = await apiUser();
    const page = await openPage();
    await signInInBrowser(page, email);
    const restrict = await server.request(`/users/${userId}`, {
      method: "PATCH",
      as: { type: "server", projectId: project.id, secretServerKey: project.secretServerKey },
      body: { restricted_by_admin: true },
    });
    expect(restrict.status, restrict.text).toBe(200);

    const { link } = await startedLogin();
    await page.goto(link);
    await page.getByRole("button", { name: "Authorize", exact: true }).click();
    await page
      .getByRole("alert")
      .filter({
        hasText: "Failed to authorize the CLI application: Your account is not allowed to sign in to command line applications.",
      })
      .waitFor();
  });

  test("the remembered click is forgotten when another login's link opens, and when finishing on return fails; Try Again recovers", async () => {
    const user = await apiUser();
    const page = await openPage();
    await signInInBrowser(page, user.email);

    // A click remembered for another login does not authorize this one.
    const other = await startedLogin();
    const { link, pollingCode } = await startedLogin();
    await page.evaluate(
      (code) => sessionStorage.setItem("stack-cli-auth-confirmed", code),
      new URL(other.link).searchParams.get("login_code")!,
    );
    await page.goto(link);
    await page.getByRole("heading", { name: "Authorize CLI Application" }).waitFor();
    await page.waitForFunction(() => sessionStorage.getItem("stack-cli-auth-confirmed") === null);
    const waiting = await server.request("/auth/cli/poll", { method: "POST", as: clientAuth(), body: { polling_code: pollingCode } });
    expect(waiting.body).toEqual({ status: "waiting" });

    // Remembered for a login that is already spent: the page tries to finish on its own, fails, and forgets it.
    const spent = await startedLogin();
    const spentCode = new URL(spent.link).searchParams.get("login_code")!;
    const done = await server.request("/auth/cli/complete", {
      method: "POST",
      as: clientAuth(),
      body: { login_code: spentCode, refresh_token: user.refreshToken },
    });
    expect(done.status, done.text).toBe(200);
    await page.evaluate((code) => sessionStorage.setItem("stack-cli-auth-confirmed", code), spentCode);
    await page.goto(spent.link);
    await page.getByRole("heading", { name: "Authorization Failed" }).waitFor();
    expect(await confirmedFlag(page)).toBeNull();
    await page.getByRole("button", { name: "Try Again", exact: true }).click();
    await headingFocused(page, "Authorize CLI Application");
  });

  test("a link without a login code says so", async () => {
    const page = await openPage();
    await page.goto(`${demo.url}/handler/cli-auth-confirm`);
    await page.getByRole("heading", { name: "Invalid CLI Authorization Link" }).waitFor();
  });
});
