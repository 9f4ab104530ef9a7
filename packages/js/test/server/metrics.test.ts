/** The project overview through the admin app (the owner's session) against a real server. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ServerUser } from "../../src/index.ts";
import { clientAppOf, createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, startServer, uniqueEmail, type TestServer } from "./support.ts";

let server: TestServer;
let baseUrl: string;
let project: SdkProject;
const signedUp: string[] = [];

beforeAll(async () => {
  ({ server, baseUrl } = await startServer());
  project = await createSdkProject(baseUrl);
  for (const name of ["first", "second"]) {
    const app = clientAppOf(baseUrl, project);
    const result = await app.signUpWithCredential({ email: uniqueEmail(name), password: PASSWORD, noRedirect: true });
    if (result.status !== "ok") throw result.error;
    signedUp.push((await app.getUser({ or: "throw" })).id);
  }
  await clientAppOf(baseUrl, project).getUser({ or: "anonymous" });
});
afterAll(() => server?.close());

const today = () => new Date().toISOString().slice(0, 10);

describe("getMetrics", () => {
  it("counts the project's users, today's sign-ups and activity, and lists the newest users as ServerUsers", async () => {
    const metrics = await project.project.app.getMetrics();
    expect(metrics.totalUsers).toBe(2);
    expect(metrics.dailyUsers).toHaveLength(31);
    expect(metrics.dailyUsers.at(-1)).toEqual({ date: today(), activity: 2 });
    expect(metrics.dailyActiveUsers.at(-1)).toEqual({ date: today(), activity: 2 });
    expect(metrics.authOverview).toMatchObject({ verifiedUsers: 0, unverifiedUsers: 2, anonymousUsers: 1, totalUsersFiltered: 2 });
    expect(metrics.authOverview.dailyActiveUsersSplit.new.at(-1)).toEqual({ date: today(), activity: 2 });
    expect(metrics.recentlyRegistered.map((u) => u.id)).toEqual([...signedUp].reverse());
    expect(metrics.recentlyRegistered[0]).toBeInstanceOf(ServerUser);
    expect(metrics.recentlyActive.map((u) => u.id).sort()).toEqual([...signedUp].sort());
    expect(metrics.loginMethods).toEqual([{ method: "password", count: 2 }]);
    expect(metrics.emailOverview.emailsByStatus).toEqual({});
    expect(metrics.paymentsOverview.mrrCents).toBe(0);
  });

  it("counts anonymous users when asked", async () => {
    const metrics = await project.project.app.getMetrics({ includeAnonymous: true });
    expect(metrics.totalUsers).toBe(3);
    expect(metrics.dailyUsers.at(-1)?.activity).toBe(3);
    expect(metrics.recentlyRegistered).toHaveLength(3);
  });

  it("counts only the project's own users", async () => {
    const other = await createSdkProject(baseUrl);
    const metrics = await other.project.app.getMetrics({ includeAnonymous: true });
    expect(metrics.totalUsers).toBe(0);
    expect(metrics.recentlyRegistered).toEqual([]);
  });
});
