/** The project's webhooks API as the SDK's admin would call it, to check the Webhooks page's view against the server's. */
import { expect } from "vitest";
import type { Dashboard, ProjectOwner } from "./dashboard.ts";

/** A call of the project's webhooks API, which must succeed. */
export async function callWebhooksApi(
  dashboard: Dashboard,
  owner: ProjectOwner,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const { token } = await owner.project.app.getSvixToken();
  const response = await fetch(`${dashboard.url}/svix/api/v1/app/${owner.id}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body !== undefined && { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.ok, `${method} ${path}: ${response.status}`).toBe(true);
  return response;
}

/** A read of the project's webhooks API. */
export function fetchWebhooksApi(dashboard: Dashboard, owner: ProjectOwner, path: string): Promise<Response> {
  return callWebhooksApi(dashboard, owner, "GET", path);
}
