/**
 * Server-rendered markup of the team components: what a team's panel shows
 * for each of the viewer's permissions, the switcher's button, and the
 * team-invitation page the handler routes. (The whole story with a real
 * server: test/browser/teams.test.ts.)
 */
import { StackClientApp, type CacheEntry, type CurrentUser, type Project, type Team } from "@latchkey/js";
import type { ReactNode } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { TeamPanel } from "../../src/components/team-panel.tsx";
import { SelectedTeamSwitcher, StackHandler, StackProvider } from "../../src/index.ts";

/**
 * An entry that already holds `value` (what the hooks read while rendering). Its arrival is marked
 * settled the way React marks the promises it has seen, so use() does not suspend on it.
 */
function held<T>(value: T): CacheEntry<T> {
  const snapshot = { status: "ok", value } as const;
  const arrival = Object.assign(Promise.resolve(), { status: "fulfilled", value: undefined });
  return { subscribe: () => () => {}, getSnapshot: () => snapshot, arrival } as unknown as CacheEntry<T>;
}

/** A client app of a project whose settings allow team API keys or not. */
function appOf(allowTeamApiKeys: boolean): StackClientApp {
  const made = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
  const project = { id: "p", displayName: "Test", config: { allowTeamApiKeys, oauthProviders: [] } } as unknown as Project;
  return Object.assign(made, { _projectEntry: () => held(project) });
}
const app = appOf(true);
const render = (node: ReactNode, on = app) => renderToString(<StackProvider app={on}>{node}</StackProvider>);

const team = {
  id: "t1",
  displayName: "Analytical Engines",
  _usersEntry: () =>
    held([
      { id: "u1", teamProfile: { displayName: "Ada", profileImageUrl: null } },
      { id: "u2", teamProfile: { displayName: "Grace", profileImageUrl: null } },
    ]),
  _invitationsEntry: () => held([{ id: "i1", recipientEmail: "charles@example.com", expiresAt: new Date(0), revoke: async () => {} }]),
} as unknown as Team;

function viewerWith(permissions: string[]): CurrentUser {
  return {
    id: "u1",
    _permissionsEntry: () => held(permissions.map((id) => ({ id }))),
    _teamProfileEntry: () => held({ displayName: "Ada", profileImageUrl: null, update: async () => {} }),
  } as unknown as CurrentUser;
}

/** The titles of the panel's parts, in order. */
const parts = (html: string) => [...html.matchAll(/<h3 id="[^"]+">([^<]+)<\/h3>/g)].map(([, title]) => title);

describe("a team's panel in account settings", () => {
  it("without permissions: only the viewer's own profile and leaving", () => {
    const html = render(<TeamPanel user={viewerWith([])} team={team} />);
    expect(parts(html)).toEqual(["Your profile in this team", "Leave team"]);
    expect(html).not.toContain("charles@example.com");
    expect(html).not.toContain("Grace");
  });

  it("$invite_members alone: the invite form, but no member list nor pending invitations", () => {
    const html = render(<TeamPanel user={viewerWith(["$invite_members"])} team={team} />);
    expect(parts(html)).toEqual(["Invite a member", "Your profile in this team", "Leave team"]);
    expect(html).toMatch(/<label for="[^"]+">E-mail address to invite<\/label>/);
  });

  it("$read_members and $invite_members (a default member): members and invitations, without remove or revoke buttons", () => {
    const html = render(<TeamPanel user={viewerWith(["$read_members", "$invite_members"])} team={team} />);
    expect(parts(html)).toEqual(["Members", "Invite a member", "Pending invitations", "Your profile in this team", "Leave team"]);
    expect(html).toContain("Grace");
    expect(html).toContain("charles@example.com");
    expect(html).not.toMatch(/>Remove<\/button>/);
    expect(html).not.toMatch(/>Revoke<\/button>/);
  });

  it("$remove_members adds a remove button for every other member and a revoke button per invitation", () => {
    const html = render(<TeamPanel user={viewerWith(["$read_members", "$invite_members", "$remove_members"])} team={team} />);
    expect(html).toContain('aria-label="Remove Grace from the team"');
    expect(html).not.toContain('aria-label="Remove Ada from the team"');
    expect(html).toContain('aria-label="Revoke the invitation to charles@example.com"');
  });

  it("$update_team and $delete_team: the team's settings, renaming and deleting", () => {
    expect(parts(render(<TeamPanel user={viewerWith(["$update_team"])} team={team} />))).toContain("Team settings");
    const html = render(<TeamPanel user={viewerWith(["$update_team", "$delete_team"])} team={team} />);
    expect(html).toMatch(/<label for="[^"]+">Team name<\/label>/);
    expect(html).toMatch(/>Rename team<\/button>/);
    expect(html).toMatch(/>Delete team…<\/button>/);
    const renameOnly = render(<TeamPanel user={viewerWith(["$update_team"])} team={team} />);
    expect(renameOnly).not.toContain("Delete team…");
  });
});

describe("a team's API keys in its panel", () => {
  it("shown to a member holding $manage_api_keys, after the team's settings", () => {
    const html = render(<TeamPanel user={viewerWith(["$manage_api_keys"])} team={team} />);
    expect(parts(html)).toEqual(["Your profile in this team", "API keys", "Leave team"]);
    expect(html).toMatch(/<label for="[^"]+">Key description<\/label>/);
  });

  it("hidden from members without it, and from everyone while the project allows no team keys", () => {
    expect(parts(render(<TeamPanel user={viewerWith(["$read_members", "$update_team"])} team={team} />))).not.toContain("API keys");
    expect(parts(render(<TeamPanel user={viewerWith(["$manage_api_keys"])} team={team} />, appOf(false)))).not.toContain("API keys");
  });
});

describe("SelectedTeamSwitcher", () => {
  it("renders nothing for a signed-out visitor (and while server rendering)", () => {
    expect(render(<SelectedTeamSwitcher />)).toBe("");
  });
});

describe("the team-invitation page", () => {
  it("is routed by the handler; a link without a code says so", () => {
    const html = render(<StackHandler pathname="/handler/team-invitation" />);
    expect(html).toMatch(/>Team invitation<\/h1>/);
    expect(html).toContain("This link has no invitation code.");
  });
});
