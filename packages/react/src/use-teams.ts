/**
 * Teams, their members and invitations as React state, read through the
 * SDK's cache (shared with `user.listTeams()`, `team.listUsers()`, ...) and
 * read again after the SDK changes them. Each suspends on its first read.
 */
import type {
  CacheEntry,
  EditableTeamMemberProfile,
  ServerTeam,
  ServerTeamUser,
  StackServerApp,
  Team,
  TeamInvitation,
  TeamRef,
  TeamUser,
  UserTeamInvitation,
  UserWithTeams,
} from "@latchkey/js";
import { useStackApp } from "./provider.tsx";
import { useCacheEntry } from "./use-cache-entry.ts";

type TeamOf<U extends UserWithTeams> = Awaited<ReturnType<U["listTeams"]>>[number];

/** A user's teams; without a user, every team of the project (a server app in <StackProvider>). */
export function useTeams<U extends UserWithTeams>(user: U): TeamOf<U>[];
export function useTeams(): ServerTeam[];
export function useTeams(user?: UserWithTeams): Team[] {
  const app = useStackApp<StackServerApp>();
  return useCacheEntry(user ? user._teamsEntry() : serverApp(app, "useTeams()")._teamsEntry());
}

/** One of a user's teams (null when not a member); without a user, any team of the project by id (a server app). */
export function useTeam<U extends UserWithTeams>(user: U, teamId: string): TeamOf<U> | null;
export function useTeam(teamId: string): ServerTeam | null;
export function useTeam(userOrId: UserWithTeams | string, teamId?: string): Team | null {
  const app = useStackApp<StackServerApp>();
  const byId = typeof userOrId === "string";
  // One cache hook either way: a server app's read of the team, or the user's list.
  const entry = byId ? serverApp(app, "useTeam(id)")._teamEntry(userOrId) : userOrId._teamsEntry();
  const read = useCacheEntry(entry as CacheEntry<Team | null | Team[]>);
  return Array.isArray(read) ? (read.find((team) => team.id === teamId) ?? null) : read;
}

/** A team's members with their profile in it (server users for a ServerTeam); a client member needs `$read_members`. */
export function useTeamUsers<T extends Team>(team: T): T extends ServerTeam ? ServerTeamUser[] : TeamUser[];
export function useTeamUsers(team: Team): TeamUser[] {
  return useCacheEntry(team._usersEntry());
}

/** A team's pending invitations; a client member needs `$read_members` and `$invite_members`. */
export function useTeamInvitations(team: Team): TeamInvitation[] {
  return useCacheEntry(team._invitationsEntry());
}

/** Pending invitations to the user's verified addresses. */
export function useUserTeamInvitations(user: UserWithTeams): UserTeamInvitation[] {
  return useCacheEntry(user._teamInvitationsEntry());
}

/** The user's own name and image in a team, with `update`. */
export function useTeamProfile(user: UserWithTeams, team: TeamRef): EditableTeamMemberProfile {
  return useCacheEntry(user._teamProfileEntry(team));
}

function serverApp(app: StackServerApp, hook: string): StackServerApp {
  if (typeof (app as Partial<StackServerApp>)._teamsEntry !== "function") {
    throw new Error(`${hook} without a user lists the project's teams: it needs a server app in <StackProvider>. Pass the user.`);
  }
  return app;
}
