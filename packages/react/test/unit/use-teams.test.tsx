/**
 * The team and permission hooks read the entries the SDK's objects hand out:
 * one user's list answers `useTeam(user, id)`, one recursive permission list
 * answers `usePermission`, and a server app's teams answer `useTeams()`.
 */
import { StackClientApp, StackServerApp, type UserWithTeams } from "@latchkey/js";
import { prerender } from "react-dom/static";
import { Suspense } from "react";
import { describe, expect, it } from "vitest";
import { CachedQuery, CacheStore } from "../../../js/src/cache/index.ts";
import { StackProvider, usePermission, usePermissions, useTeam, useTeams } from "../../src/index.ts";

const store = new CacheStore();
let reads = 0;
const teams = new CachedQuery(store, "teams", async () => {
  reads += 1;
  return [
    { id: "t1", displayName: "Crew" },
    { id: "t2", displayName: "Other" },
  ];
});
const permissions = new CachedQuery(store, "permissions", async (teamId: string | null, recursive: boolean) =>
  teamId === "t1" && recursive ? [{ id: "$read_members" }, { id: "team_member" }] : [{ id: "billing" }],
);
/** A user object as far as the hooks read it. */
const user = {
  _teamsEntry: () => teams.entry(),
  _permissionsEntry: (team: { id: string } | null, options?: { recursive?: boolean }) =>
    permissions.entry(team?.id ?? null, options?.recursive ?? true),
} as unknown as UserWithTeams;

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });

async function html(node: React.ReactNode, target: StackClientApp = app): Promise<string> {
  const { prelude } = await prerender(
    <StackProvider app={target}>
      <Suspense fallback={<p>Loading</p>}>{node}</Suspense>
    </StackProvider>,
  );
  return (await new Response(prelude).text()).replace(/<!--[^>]*-->/g, "");
}

describe("team hooks", () => {
  it("finds one team in the user's list, shared with the list itself", async () => {
    function Teams() {
      const all = useTeams(user);
      const one = useTeam(user, "t2");
      const none = useTeam(user, "t9");
      return <p>{`${all.length} ${one?.displayName} ${String(none)}`}</p>;
    }
    expect(await html(<Teams />)).toBe("<p>2 Other null</p>");
    expect(reads).toBe(1);
  });

  it("answers usePermission from the recursive list, and usePermissions by scope", async () => {
    function Permissions() {
      const canRead = usePermission(user, { id: "t1" }, "$read_members") !== null;
      const canDelete = usePermission(user, { id: "t1" }, "$delete_team") !== null;
      const billing = usePermission(user, "billing")?.id;
      const direct = usePermissions(user, { id: "t1" }, { recursive: false }).map((p) => p.id);
      return <p>{`${canRead} ${canDelete} ${billing} ${direct.join()}`}</p>;
    }
    expect(await html(<Permissions />)).toBe("<p>true false billing billing</p>");
  });

  it("asks for a server app when useTeams() names no user", async () => {
    function All() {
      return <p>{useTeams().length}</p>;
    }
    // Outside a Suspense boundary, so the error reaches prerender rather than being left to the browser.
    await expect(
      prerender(
        <StackProvider app={app}>
          <All />
        </StackProvider>,
      ),
    ).rejects.toThrow(/server app/);
    const server = new StackServerApp({ projectId: "p", secretServerKey: "k", baseUrl: "http://127.0.0.1:9" });
    (server as unknown as { _teamsEntry: () => unknown })._teamsEntry = () => teams.entry();
    expect(await html(<All />, server)).toBe("<p>2</p>");
  });
});
