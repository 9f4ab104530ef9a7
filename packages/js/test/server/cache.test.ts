/** The SDK's cache against a real server: shared reads, and the SDK's own writes showing up in subscribed entries. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AdminProject, KnownErrors, StackClientApp } from "../../src/index.ts";
import { createSdkProject, type SdkProject, clientAppOf, startServerWithProject } from "./fixtures.ts";
import { countingFetch, nextSnapshot, PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject()));
afterAll(() => server?.close());

/** A client app of the project whose requests are counted. */
function countedApp() {
  const counting = countingFetch();
  const app = clientAppOf(baseUrl, project, { fetch: counting.fetch });
  return { app, calls: counting.calls };
}

async function signedUpApp() {
  const { app, calls } = countedApp();
  const email = uniqueEmail("cache");
  const result = await app.signUpWithCredential({ email, password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  return { app, email, calls };
}

const userReads = (calls: { method: string; path: string }[]) => calls.filter((c) => c.method === "GET" && c.path === "/users/me").length;

describe("shared reads", () => {
  it("makes one request for two concurrent getUser() calls, and reuses it while kept", async () => {
    const { app, calls } = await signedUpApp();
    const before = userReads(calls);
    const [one, two] = await Promise.all([app.getUser(), app.getUser()]);
    expect(one?.primaryEmail).toBeTruthy();
    expect(two).toBe(one);
    expect(userReads(calls) - before).toBe(1);
    // A hook of the same query reads the same entry: no further request.
    expect(app._userEntry().getSnapshot()).toEqual({ status: "ok", value: one });
    expect(userReads(calls) - before).toBe(1);
  });

  it("makes one request for concurrent getProject() calls", async () => {
    const { app, calls } = await signedUpApp();
    const [one, two] = await Promise.all([app.getProject(), app.getProject()]);
    expect(one.id).toBe(project.id);
    expect(two).toBe(one);
    expect(calls.filter((c) => c.path === "/projects/current")).toHaveLength(1);
  });

  it("shows an admin app's hooks the admin view of the project", async () => {
    const admin = project.project.app;
    const shown = nextSnapshot(admin._projectEntry(), () => true);
    const read = await shown.seen;
    shown.unsubscribe();
    expect(read).toBeInstanceOf(AdminProject);
    expect(read.id).toBe(project.id);
  });

  it("shows an admin app's subscribers the project as an update left it", async () => {
    const { project: owned } = await createSdkProject(baseUrl);
    const entry = owned.app._projectEntry();
    const before = nextSnapshot(entry, (s) => s.status === "ok");
    expect((await before.seen).displayName).toBe("SDK test project");
    const renamed = nextSnapshot(entry, (s) => s.status === "ok" && s.value.displayName === "Renamed shop");
    await owned.update({ displayName: "Renamed shop" });
    expect((await renamed.seen).displayName).toBe("Renamed shop");
    before.unsubscribe();
    renamed.unsubscribe();
  });
});

describe("anonymous users", () => {
  it("signs up once and reads the new user once for concurrent getUser({ or: 'anonymous' }) calls and a subscriber", async () => {
    const { app, calls } = countedApp();
    const entry = app._userEntry({ or: "anonymous" });
    const shown = nextSnapshot(entry, (s) => s.status === "ok" && s.value !== null);
    const [one, two] = await Promise.all([app.getUser({ or: "anonymous" }), app.getUser({ or: "anonymous" })]);
    expect(one.isAnonymous).toBe(true);
    expect(two).toBe(one);
    expect(await shown.seen).toBe(one);
    shown.unsubscribe();
    // A second read would already be under way or queued behind the throttle: wait for it rather than for the clock.
    await entry._settled();
    expect(entry._reading).toBe(false);
    expect(calls.filter((c) => c.path === "/auth/anonymous/sign-up")).toHaveLength(1);
    expect(userReads(calls)).toBe(1);
  });
});

describe("writes invalidate what they change", () => {
  it("shows a subscribed listener the new display name after user.update()", async () => {
    const { app } = await signedUpApp();
    const user = (await app.getUser({ or: "throw" }))!;
    const watch = nextSnapshot(app._userEntry(), (s) => s.status === "ok" && s.value?.displayName === "Ada");
    await user.update({ displayName: "Ada" });
    expect((await watch.seen)?.displayName).toBe("Ada");
    watch.unsubscribe();
    expect((await app.getUser())?.displayName).toBe("Ada");
  });

  it("shows null to a subscribed listener after sign-out, and the user again after sign-in", async () => {
    const { app, email } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    const entry = app._userEntry();
    const out = nextSnapshot(entry, (s) => s.status === "ok" && s.value === null);
    await app.signOut();
    expect(await out.seen).toBeNull();
    out.unsubscribe();
    const back = nextSnapshot(entry, (s) => s.status === "ok" && s.value !== null);
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    expect((await back.seen)?.id).toBe(user.id);
    back.unsubscribe();
  });

  it("never shows the signed-out 'nobody' once a user has signed in: the entry waits for the new user", async () => {
    const { app, email } = await signedUpApp();
    await app.signOut();
    const entry = app._userEntry();
    const nobody = nextSnapshot(entry, (s) => s.status === "ok" && s.value === null);
    expect(await nobody.seen).toBeNull();
    // What an app sees the moment it is told of the sign-in, and when the sign-in call returns.
    const seenOnChange: string[] = [];
    const stop = app.onUserChange(() => seenOnChange.push(entry.getSnapshot().status));
    expect((await app.signInWithCredential({ email, password: PASSWORD, noRedirect: true })).status).toBe("ok");
    const afterSignIn = entry.getSnapshot();
    stop();
    nobody.unsubscribe();
    expect(seenOnChange[0]).toBe("pending");
    expect(afterSignIn.status === "ok" && afterSignIn.value === null).toBe(false);
    expect((await app.getUser())?.primaryEmail).toBe(email);
    const shown = entry.getSnapshot();
    expect(shown.status === "ok" && shown.value?.primaryEmail).toBe(email);
  });

  it("refreshes the subscribed contact channels after create, update and delete", async () => {
    const { app, email } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    const entry = user._contactChannelsEntry();
    expect((await user.listContactChannels()).map((c) => c.value)).toEqual([email]);

    const second = uniqueEmail("second");
    const added = nextSnapshot(entry, (s) => s.status === "ok" && s.value.some((c) => c.value === second));
    const channel = await user.createContactChannel({ type: "email", value: second, usedForAuth: false });
    expect((await added.seen).map((c) => c.value).sort()).toEqual([email, second].sort());
    added.unsubscribe();

    const forAuth = nextSnapshot(entry, (s) => s.status === "ok" && s.value.some((c) => c.value === second && c.usedForAuth));
    await channel.update({ usedForAuth: true });
    await forAuth.seen;
    forAuth.unsubscribe();

    const removed = nextSnapshot(entry, (s) => s.status === "ok" && s.value.every((c) => c.value !== second));
    await channel.delete();
    expect((await removed.seen).map((c) => c.value)).toEqual([email]);
    removed.unsubscribe();
  });

  it("refreshes the subscribed notification categories after a choice changes", async () => {
    const { app } = await signedUpApp();
    const user = await app.getUser({ or: "throw" });
    const marketing = (await user.listNotificationCategories()).find((c) => c.name === "Marketing")!;
    expect(marketing.enabled).toBe(true);
    const off = nextSnapshot(
      user._notificationCategoriesEntry(),
      (s) => s.status === "ok" && s.value.some((c) => c.name === "Marketing" && !c.enabled),
    );
    await marketing.setEnabled(false);
    await off.seen;
    off.unsubscribe();
    expect((await user.listNotificationCategories()).find((c) => c.name === "Marketing")!.enabled).toBe(false);
  });
});

describe("failed reads", () => {
  it("keeps a refused read as the entry's error, without retrying in a loop, and reads again for a new subscriber", async () => {
    const counting = countingFetch();
    const app = new StackClientApp({
      baseUrl,
      projectId: project.id,
      publishableClientKey: "pck_not_a_real_key",
      tokenStore: "memory",
      fetch: counting.fetch,
    });
    const reads = () => counting.calls.filter((c) => c.path === "/projects/current").length;
    const entry = app._projectEntry();
    const first = nextSnapshot(entry, () => true);
    await expect(first.seen).rejects.toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
    // A retry would be queued by now (behind the throttle): the read settles with nothing queued after it.
    await entry._settled();
    expect(entry._reading).toBe(false);
    expect(entry.getSnapshot().status).toBe("error");
    expect(reads()).toBe(1);

    const second = nextSnapshot(entry, () => true);
    await expect(second.seen).rejects.toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
    expect(reads()).toBe(2);
    await expect(app.getProject()).rejects.toBeInstanceOf(KnownErrors.InvalidPublishableClientKey);
    expect(reads()).toBe(3);
    first.unsubscribe();
    second.unsubscribe();
  });
});
