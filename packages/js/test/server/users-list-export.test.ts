/** The admin app's user list extensions (order by last activity, anonymous users alone, a whole id) and its streamed export. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownError, StackAdminApp, type ServerUser } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
let app: StackAdminApp;
const created: ServerUser[] = [];
let anonymousId: string;

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  app = project.project.app;
  for (const name of ["Ann", "Ben", "Cat"])
    created.push(await app.createUser({ primaryEmail: uniqueEmail(name.toLowerCase()), displayName: name }));
  const anonymous = await clientAppOf(baseUrl, project).getUser({ or: "anonymous" });
  anonymousId = anonymous.id;
});
afterAll(() => server?.close());

async function text(stream: ReadableStream<Uint8Array>): Promise<string> {
  return new Response(stream).text();
}

describe("listUsers extensions", () => {
  it("orders by last activity, and pages in that order", async () => {
    const ids = created.map((u) => u.id);
    // Created one after the other: last activity follows creation.
    const desc = await app.listUsers({ orderBy: "lastActiveAt", desc: true, includeAnonymous: true });
    expect(desc.map((u) => u.id)).toEqual([anonymousId, ...[...ids].reverse()]);
    const first = await app.listUsers({ orderBy: "lastActiveAt", limit: 2 });
    expect(first.map((u) => u.id)).toEqual(ids.slice(0, 2));
    const second = await app.listUsers({ orderBy: "lastActiveAt", limit: 2, cursor: first.nextCursor! });
    expect(second.map((u) => u.id)).toEqual(ids.slice(2));
    expect(second.nextCursor).toBeNull();
  });

  it("lists anonymous users alone, and finds a user by a whole id", async () => {
    expect((await app.listUsers({ onlyAnonymous: true })).map((u) => u.id)).toEqual([anonymousId]);
    expect((await app.listUsers({ query: created[1]!.id })).map((u) => u.displayName)).toEqual(["Ben"]);
  });
});

describe("exportUsers", () => {
  it("streams CSV of the filtered set in the list's order", async () => {
    const csv = await text(await app.exportUsers({ format: "csv", orderBy: "lastActiveAt", desc: true }));
    const lines = csv.split("\r\n").filter((line) => line !== "");
    expect(lines[0]).toBe("id,display_name,primary_email,primary_email_verified,is_anonymous,signed_up_at,last_active_at,sign_in_methods");
    expect(lines.slice(1).map((line) => line.split(",")[1])).toEqual(["Cat", "Ben", "Ann"]);
    const anonymous = await text(await app.exportUsers({ format: "csv", onlyAnonymous: true }));
    expect(anonymous.split("\r\n")[1]!.split(",")[0]).toBe(anonymousId);
  });

  it("streams JSON: the server's user objects", async () => {
    const json = JSON.parse(await text(await app.exportUsers({ format: "json", query: "ben" }))) as { id: string }[];
    expect(json.map((u) => u.id)).toEqual([created[1]!.id]);
  });

  it("throws the server's known error before any stream", async () => {
    const wrongKey = new StackAdminApp({ baseUrl, projectId: project.id, superSecretAdminKey: "not-the-key" });
    await expect(wrongKey.exportUsers({ format: "csv" })).rejects.toBeInstanceOf(KnownError);
  });
});
