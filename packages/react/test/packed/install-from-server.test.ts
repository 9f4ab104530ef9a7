/**
 * A newcomer's first app, end to end: `npm start` (a real process, which packs the SDK and serves it at /sdk/), the
 * dashboard's setup page read in Chromium, a new Vite + React app outside this repository made of the files that
 * page shows, installed with the command it shows (the packed packages come from the server; the npm registry has
 * none), type-checked and built, then served; a user signs up and in through its @latchkey/react pages, and the
 * server knows them. Also: npm resolves @latchkey/js from @latchkey/react's URL alone, and from both in any order.
 */
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser, type Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { ensureChromium } from "../../../../scripts/ensure-chromium.mjs";
import { KEY_PLACEHOLDER } from "../../../../apps/dashboard/src/pages/setup/snippets.ts";
import { signInOwner } from "../../../../apps/dashboard/test/browser/dashboard.ts";
import { StackServerApp } from "../../../js/src/index.ts";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, SEED_KEYS, uniqueEmail } from "../../../js/test/server/support.ts";
import { freePort } from "../../../server/test/harness.ts";
import { logPageErrors, repoRoot } from "../browser/demo-app.ts";
import { run, startProcess, writeFile, writeViteApp, type Started } from "./new-app.ts";

/** What a test environment adds to the command the page shows: npm's cache is warm from this repository's install. */
const NPM_FLAGS = ["--prefer-offline", "--no-audit", "--no-fund"];

let tmp: string;
let latchkey: Started;
let preview: Started | null = null;
let browser: Browser;
let project: SdkProject;
/** The server as `npm start` names itself (its LATCHKEY_API_URL default), which the setup page's command carries. */
let serverUrl: string;

beforeAll(async () => {
  tmp = mkdtempSync(join(tmpdir(), "latchkey-new-app-"));
  const port = await freePort();
  serverUrl = `http://localhost:${port}`;
  // LATCHKEY_SDK_OUT and LATCHKEY_DASHBOARD_OUT (vitest.config.ts) reach `npm start`, which finds both already built.
  latchkey = await startProcess("npm", ["start"], {
    cwd: repoRoot,
    env: {
      PORT: String(port),
      LATCHKEY_DATA_DIR: join(tmp, "latchkey", "data"),
      STACK_SEED_INTERNAL_PROJECT_PUBLISHABLE_CLIENT_KEY: SEED_KEYS.publishableClientKey,
    },
    url: serverUrl,
    readyPath: "/api/v1",
  });
  project = await createSdkProject(serverUrl);
  browser = await chromium.launch({
    executablePath: ensureChromium(),
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
  });
});

afterAll(async () => {
  await browser?.close();
  await preview?.stop();
  await latchkey?.stop();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

async function newPage(): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1100, height: 900 } });
  const page = logPageErrors(await context.newPage());
  page.on("pageerror", (error) => pageErrors.push(error.stack ?? error.message));
  return page;
}
const pageErrors: string[] = [];

/** The React (Vite) guide of the project's setup page, as the dashboard shows it to its owner: each file's name and text. */
async function setupPageFiles(): Promise<{ name: string; code: string }[]> {
  const page = await newPage();
  await signInOwner(page, serverUrl, project.owner.primaryEmail!);
  await page.goto(`${serverUrl}/projects/${project.id}/setup`);
  await page.getByRole("tab", { name: "React (Vite)", selected: true }).waitFor();
  const files = await page.locator("figure.code-block").evaluateAll((figures) =>
    figures.map((figure) => ({
      name: figure.querySelector("figcaption span")?.textContent ?? "",
      code: figure.querySelector("pre code")?.textContent ?? "",
    })),
  );
  await page.context().close();
  return files;
}

/** The @latchkey/js packages installed under `appDir` (one, at the top, when npm resolved the pair as one). */
function installedJsCopies(appDir: string): string[] {
  return [
    join(appDir, "node_modules", "@latchkey", "js"),
    join(appDir, "node_modules", "@latchkey", "react", "node_modules", "@latchkey", "js"),
  ].filter((path) => existsSync(join(path, "package.json")));
}

test("a new Vite app follows the setup page to a working sign-up and sign-in", async () => {
  const files = await setupPageFiles();
  expect(files.map((file) => file.name)).toEqual(["Terminal", ".env.local", "src/latchkey.ts", "src/main.tsx"]);
  const [terminal, ...appFiles] = files;
  const command = `npm install ${serverUrl}/sdk/latchkey-js.tgz ${serverUrl}/sdk/latchkey-react.tgz`;
  expect(terminal!.code).toBe(command);

  const appDir = join(tmp, "my-app");
  writeViteApp(appDir);
  // The key the owner saved when they made it (the page shows it only right after).
  for (const file of appFiles) writeFile(appDir, file.name, file.code.replaceAll(KEY_PLACEHOLDER, project.publishableClientKey));
  const [npm, ...args] = terminal!.code.split(" ");
  await run(npm!, [...args, ...NPM_FLAGS], appDir);

  const manifest = JSON.parse(readFileSync(join(appDir, "package.json"), "utf8")) as { dependencies: Record<string, string> };
  expect(manifest.dependencies).toMatchObject({
    "@latchkey/js": `${serverUrl}/sdk/latchkey-js.tgz`,
    "@latchkey/react": `${serverUrl}/sdk/latchkey-react.tgz`,
  });
  expect(installedJsCopies(appDir)).toEqual([join(appDir, "node_modules", "@latchkey", "js")]);

  // The app's own build script: its TypeScript checks against the packages' declarations, then Vite bundles it.
  await run("npm", ["run", "build"], appDir);
  const previewPort = await freePort();
  preview = await startProcess("npx", ["vite", "preview", "--port", String(previewPort), "--strictPort", "--host", "127.0.0.1"], {
    cwd: appDir,
    env: {},
    url: `http://127.0.0.1:${previewPort}`,
    readyPath: "/",
  });

  const page = await newPage();
  const email = uniqueEmail("first-app");
  // A visitor who is not signed in is sent to the sign-in page, styled by the components' own stylesheet.
  await page.goto(`${preview.url}/`);
  await page.waitForURL((url) => url.pathname === "/handler/sign-in");
  await expect.poll(() => page.locator(".lk-card").evaluate((card) => getComputedStyle(card).borderRadius)).toBe("8px");
  await page.getByRole("link", { name: "Sign up" }).click();
  await page.waitForURL((url) => url.pathname === "/handler/sign-up");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  const repeat = page.getByLabel("Repeat password", { exact: true });
  if (await repeat.count()) await repeat.fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL((url) => url.pathname === "/");
  await page.getByText(`Signed in as ${email}`).waitFor();

  // Signed out (a new browser context), the same user signs in.
  const again = await newPage();
  await again.goto(`${preview.url}/`);
  await again.waitForURL((url) => url.pathname === "/handler/sign-in");
  await again.getByLabel("Email", { exact: true }).fill(email);
  await again.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await again.getByRole("button", { name: "Sign in", exact: true }).click();
  await again.waitForURL((url) => url.pathname === "/");
  await again.getByText(`Signed in as ${email}`).waitFor();

  const server = new StackServerApp({ baseUrl: serverUrl, projectId: project.id, secretServerKey: project.secretServerKey });
  const users = await server.listUsers({ query: email });
  expect(users.map((user) => user.primaryEmail)).toEqual([email]);
  expect(pageErrors).toEqual([]);
});

test("npm resolves @latchkey/js from @latchkey/react's URL alone, and the pair in either order", async () => {
  const appDir = join(tmp, "react-only");
  writeFile(appDir, "package.json", JSON.stringify({ name: "react-only", private: true, type: "module" }));
  await run("npm", ["install", `${serverUrl}/sdk/latchkey-react.tgz`, ...NPM_FLAGS], appDir);
  expect(installedJsCopies(appDir)).toEqual([join(appDir, "node_modules", "@latchkey", "js")]);

  await run("npm", ["install", `${serverUrl}/sdk/latchkey-react.tgz`, `${serverUrl}/sdk/latchkey-js.tgz`, ...NPM_FLAGS], appDir);
  expect(installedJsCopies(appDir)).toEqual([join(appDir, "node_modules", "@latchkey", "js")]);
  // `npm ls` exits non-zero when a dependency is missing or does not match what asks for it.
  const tree = JSON.parse(await run("npm", ["ls", "--all", "--json", "@latchkey/js"], appDir)) as {
    dependencies: Record<string, { resolved: string; dependencies?: Record<string, unknown> }>;
  };
  expect(tree.dependencies["@latchkey/js"]!.resolved).toBe(`${serverUrl}/sdk/latchkey-js.tgz`);
  expect(Object.keys(tree.dependencies).sort()).toEqual(["@latchkey/js", "@latchkey/react"]);
});
