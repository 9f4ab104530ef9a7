/**
 * PurchaseButton in Chromium, in the demo app against a real server: the
 * signed-in user's click makes a checkout URL and the browser goes to it
 * (the server's purchase page); a product the user may not buy shows the
 * server's refusal beside the button and goes nowhere.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, expect, test } from "vitest";
import { createSdkProject, type SdkProject } from "../../../js/test/server/fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "../../../js/test/server/support.ts";
import { startDemoApp, type DemoApp } from "./demo-app.ts";

let server: TestServer;
let apiUrl: string;
let project: SdkProject;
let demo: DemoApp;

beforeAll(async () => {
  ({ server, baseUrl: apiUrl } = await startServer());
  project = await createSdkProject(apiUrl);
  await project.project.updateConfig({
    "payments.products.pro": { displayName: "Pro", prices: { monthly: { USD: "10", interval: [1, "month"] } } },
    "payments.products.team-plan": { displayName: "Team plan", customerType: "team", prices: { once: { USD: "10" } } },
  });
  demo = await startDemoApp({
    VITE_LATCHKEY_API_URL: apiUrl,
    VITE_LATCHKEY_PROJECT_ID: project.id,
    VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY: project.publishableClientKey,
  });
});

async function signUp(page: Page): Promise<void> {
  await page.goto(`${demo.url}/components?show=credential-sign-up`);
  await page.getByLabel("Email", { exact: true }).fill(uniqueEmail("buyer"));
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign up", exact: true }).click();
  await page.waitForURL(`${demo.url}/`, { timeout: 15_000 }).catch(() => {});
}

afterAll(async () => {
  await demo?.close();
  await server?.close();
});

test("a signed-in user's click goes to the purchase page of the product; a refused product shows why", async () => {
  const page = await demo.openPage();
  await signUp(page);
  await page.getByRole("heading", { name: "Welcome" }).waitFor();

  await page.goto(`${demo.url}/components?show=purchase-button&product=team-plan`);
  await page.getByRole("button", { name: "Buy Pro" }).click();
  await expect.poll(() => page.getByRole("alert").textContent()).toContain("is not a valid customer");
  expect(new URL(page.url()).pathname).toBe("/components");

  // The purchase page is the dashboard's, which this server does not serve: the browser's request for it is
  // answered here, and the URL it went to is what counts.
  await page.route(
    (url) => url.pathname.startsWith("/purchase/"),
    (route) => route.fulfill({ contentType: "text/html", body: "Purchase" }),
  );
  await page.goto(`${demo.url}/components?show=purchase-button`);
  await page.getByRole("button", { name: "Buy Pro" }).click();
  await page.waitForURL((url) => url.pathname.startsWith("/purchase/"), { timeout: 15_000 });
  const target = new URL(page.url());
  // The code in the URL is a live purchase code of Pro, leading back to the page the button was on.
  expect(target.searchParams.get("return_url")).toBe(`${demo.url}/components?show=purchase-button`);
  const fullCode = target.pathname.split("/").pop()!;
  const res = await fetch(`${apiUrl}/api/v1/payments/purchases/validate-code`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ full_code: fullCode }),
  });
  expect(res.status).toBe(200);
  expect(((await res.json()) as { product: { display_name: string } }).product.display_name).toBe("Pro");
});
