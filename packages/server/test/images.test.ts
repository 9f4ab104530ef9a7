/**
 * Images written as data: URLs: what a client may send as its picture, and
 * how user, team and project images are stored and served by us.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createProject, expectSchemaError, serverWithProject, signUpUser, type Project } from "./fixtures.ts";
import { authHeaders, type TestServer } from "./harness.ts";
import { GIF, JPEG, PNG, WEBP, dataUrl, imageId } from "./image-fixtures.ts";

let server: TestServer;
let project: Project;

beforeAll(async () => ({ server, project } = await serverWithProject()));
afterAll(() => server?.close());

const SERVED = "http://localhost:8102/api/v1/images/";
const servedUrl = (projectId: string, bytes: Buffer) => `${SERVED}${projectId}/main/${imageId(bytes)}`;

/** Fetches a served image (the harness's request() reads bodies as text). */
async function fetchImage(url: string) {
  expect(url.startsWith("http://localhost:8102/")).toBe(true);
  const res = await server.instance.app.request(url.replace("http://localhost:8102", "http://localhost"));
  return { res, bytes: Buffer.from(await res.arrayBuffer()) };
}

const patchMe = (as: Project["client"], body: unknown) => server.request("/users/me", { method: "PATCH", as, body });

describe("a client's profile picture", () => {
  it("a PNG, JPEG, GIF or WebP data: URL is stored and answered as the address we serve it at", async () => {
    const user = await signUpUser(server, project);
    for (const [type, bytes] of [
      ["image/png", PNG],
      ["image/jpeg", JPEG],
      ["image/gif", GIF],
      ["image/webp", WEBP],
    ] as const) {
      const res = await patchMe(user.as, { profile_image_url: dataUrl(type, bytes) });
      expect(res.status, res.text).toBe(200);
      expect(res.body.profile_image_url).toBe(servedUrl(project.id, bytes));
      const me = await server.request("/users/me", { as: user.as });
      expect(me.body.profile_image_url).toBe(servedUrl(project.id, bytes));

      const served = await fetchImage(res.body.profile_image_url);
      expect(served.res.status).toBe(200);
      expect(served.res.headers.get("content-type")).toBe(type);
      expect(served.res.headers.get("x-content-type-options")).toBe("nosniff");
      expect(served.res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect(served.bytes.equals(bytes)).toBe(true);
    }
    // null clears it.
    const cleared = await patchMe(user.as, { profile_image_url: null });
    expect(cleared.body.profile_image_url).toBeNull();
  });

  it("the same picture twice is one address; `image/jpg` is read as JPEG", async () => {
    const a = await signUpUser(server, project);
    const b = await signUpUser(server, project);
    const first = await patchMe(a.as, { profile_image_url: dataUrl("image/jpeg", JPEG) });
    const second = await patchMe(b.as, { profile_image_url: dataUrl("image/jpg", JPEG) });
    expect(first.body.profile_image_url).toBe(second.body.profile_image_url);
    expect((await fetchImage(second.body.profile_image_url)).res.headers.get("content-type")).toBe("image/jpeg");
  });

  it("anything but an image data: URL is refused, and nothing changes", async () => {
    const user = await signUpUser(server, project);
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    const refusals: [unknown, string][] = [
      ["https://example.com/me.png", "must be an image as a data: URL (PNG, JPEG, GIF or WebP)"],
      [dataUrl("image/svg+xml", svg), 'must be a PNG, JPEG, GIF or WebP image; "image/svg+xml" is not taken'],
      [dataUrl("text/html", Buffer.from("<script>alert(1)</script>")), 'must be a PNG, JPEG, GIF or WebP image; "text/html" is not taken'],
      [dataUrl("image/png", JPEG), "does not hold a image/png image: its content does not start as one"],
      [dataUrl("image/gif", svg), "does not hold a image/gif image: its content does not start as one"],
      [`data:image/png,${PNG.toString("latin1").slice(0, 4)}`, "must be a base64-encoded data: URL (data:<type>;base64,…)"],
      ["data:image/png;base64,iVBORw0KGgo", "is not valid base64 after base64,"],
    ];
    for (const [value, message] of refusals) {
      const res = await patchMe(user.as, { profile_image_url: value });
      expectSchemaError(res, "PATCH", "/users/me", [`body.profile_image_url ${message}`]);
    }
    expect((await server.request("/users/me", { as: user.as })).body.profile_image_url).toBeNull();
  });
});

describe("the read path", () => {
  it("a user with a stored picture is still read from the cache alone: GET /users/me answers at once", async () => {
    const user = await signUpUser(server, project);
    await patchMe(user.as, { profile_image_url: dataUrl("image/png", PNG) });
    await server.cachesCaughtUp();
    const send = () => server.instance.app.fetch(new Request("http://localhost/api/v1/users/me", { headers: authHeaders(user.as) }));
    await send();
    const cached = send();
    expect(cached, "answered synchronously, with no query").not.toBeInstanceOf(Promise);
    expect((await (await cached).json()).profile_image_url).toBe(servedUrl(project.id, PNG));
  });
});

describe("server writes of images", () => {
  it("users: a data: URL is stored and served; an https URL is kept as written; a bad data: URL is refused", async () => {
    const created = await server.request("/users", {
      method: "POST",
      as: project.server,
      body: { profile_image_url: dataUrl("image/png", PNG) },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.profile_image_url).toBe(servedUrl(project.id, PNG));
    const patched = await server.request(`/users/${created.body.id}`, {
      method: "PATCH",
      as: project.server,
      body: { profile_image_url: "https://example.com/avatar.png" },
    });
    expect(patched.body.profile_image_url).toBe("https://example.com/avatar.png");
    const svg = dataUrl("image/svg+xml", Buffer.from("<svg/>"));
    expectSchemaError(
      await server.request(`/users/${created.body.id}`, { method: "PATCH", as: project.server, body: { profile_image_url: svg } }),
      "PATCH",
      `/users/${created.body.id}`,
      ['body.profile_image_url must be a PNG, JPEG, GIF or WebP image; "image/svg+xml" is not taken'],
    );
  });

  it("teams: created and patched with a data: URL answer the served address", async () => {
    const created = await server.request("/teams", {
      method: "POST",
      as: project.server,
      body: { display_name: "Pictured", profile_image_url: dataUrl("image/gif", GIF) },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.profile_image_url).toBe(servedUrl(project.id, GIF));
    const patched = await server.request(`/teams/${created.body.id}`, {
      method: "PATCH",
      as: project.server,
      body: { profile_image_url: dataUrl("image/webp", WEBP) },
    });
    expect(patched.body.profile_image_url).toBe(servedUrl(project.id, WEBP));
    expect((await fetchImage(patched.body.profile_image_url)).bytes.equals(WEBP)).toBe(true);
  });

  it("team member profiles: a data: URL is stored and served too", async () => {
    const user = await signUpUser(server, project);
    const team = await server.request("/teams", {
      method: "POST",
      as: project.server,
      body: { display_name: "Members", creator_user_id: user.userId },
    });
    expect(team.status, team.text).toBe(201);
    const res = await server.request(`/team-member-profiles/${team.body.id}/me`, {
      method: "PATCH",
      as: user.as,
      body: { profile_image_url: dataUrl("image/png", PNG) },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.profile_image_url).toBe(servedUrl(project.id, PNG));
  });

  it("project logos: on create and on PATCH, in the admin and the client views", async () => {
    const patched = await server.request("/internal/projects/current", {
      method: "PATCH",
      as: project.admin,
      body: { logo_url: dataUrl("image/png", PNG), logo_full_url: dataUrl("image/jpeg", JPEG) },
    });
    expect(patched.status, patched.text).toBe(200);
    expect(patched.body.logo_url).toBe(servedUrl(project.id, PNG));
    expect(patched.body.logo_full_url).toBe(servedUrl(project.id, JPEG));
    const client = await server.request("/projects/current", { as: project.client });
    expect(client.body).toMatchObject({ logo_url: servedUrl(project.id, PNG), logo_full_url: servedUrl(project.id, JPEG) });

    const created = await server.request("/internal/projects", {
      method: "POST",
      as: { ...server.internal.client, accessToken: project.owner.accessToken },
      body: {
        display_name: "Logo",
        owner_team_id: project.owner.teamId,
        logo_url: dataUrl("image/gif", GIF),
        logo_full_url: "https://example.com/l.png",
      },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.logo_url).toBe(servedUrl(created.body.id, GIF));
    expect(created.body.logo_full_url).toBe("https://example.com/l.png");
    expect((await fetchImage(created.body.logo_url)).bytes.equals(GIF)).toBe(true);

    const bad = await server.request("/internal/projects/current", {
      method: "PATCH",
      as: project.admin,
      body: { logo_url: dataUrl("image/svg+xml", Buffer.from("<svg/>")) },
    });
    expectSchemaError(bad, "PATCH", "/internal/projects/current", [
      'body.logo_url must be a PNG, JPEG, GIF or WebP image; "image/svg+xml" is not taken',
    ]);
  });
});

describe("GET /images/{project_id}/{branch_id}/{image_id}", () => {
  it("serves an image only under the project that stored it; unknown ids are 404, malformed ones 400", async () => {
    const user = await signUpUser(server, project);
    const png = Buffer.concat([PNG, Buffer.from("other")]);
    const url = (await patchMe(user.as, { profile_image_url: dataUrl("image/png", png) })).body.profile_image_url as string;
    expect((await fetchImage(url)).res.status).toBe(200);

    const other = await createProject(server);
    const elsewhere = await server.request(`/images/${other.id}/main/${imageId(png)}`);
    expect(elsewhere.status).toBe(404);
    expect(elsewhere.text).toBe("No image is stored at this address.");
    expect((await server.request(`/images/${project.id}/main/${"0".repeat(64)}`)).status).toBe(404);
    expectSchemaError(await server.request(`/images/${project.id}/main/not-a-hash`), "GET", `/images/${project.id}/main/not-a-hash`, [
      "params.image_id must be an image id (64 lower-case hex digits)",
    ]);
  });

  it("goes with its project", async () => {
    const doomed = await createProject(server);
    const patched = await server.request("/internal/projects/current", {
      method: "PATCH",
      as: doomed.admin,
      body: { logo_url: dataUrl("image/png", PNG) },
    });
    expect((await fetchImage(patched.body.logo_url)).res.status).toBe(200);
    expect((await server.request("/internal/projects/current", { method: "DELETE", as: doomed.admin })).status).toBe(200);
    expect((await fetchImage(patched.body.logo_url)).res.status).toBe(404);
  });
});
