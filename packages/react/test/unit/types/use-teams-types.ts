/** Compiled (not run) with packages/react: the team and permission hooks' types follow the user and team given. */
import type { CurrentServerUser, CurrentUser, Json, ServerTeam, Team } from "@latchkey/js";
import {
  usePermission,
  usePermissions,
  useTeam,
  useTeamInvitations,
  useTeamPermissionDefinitions,
  useTeamProfile,
  useTeams,
  useTeamUsers,
} from "../../../src/index.ts";

export function ClientTeams({ user, team }: { user: CurrentUser; team: Team }): string[] {
  const teams: Team[] = useTeams(user);
  const one: Team | null = useTeam(user, teams[0]!.id);
  const members = useTeamUsers(team);
  // @ts-expect-error a client's team members are not server users
  void members[0]?.serverMetadata;
  const canInvite = usePermission(user, team, "$invite_members") !== null;
  const projectWide = usePermissions(user, { recursive: false });
  const profile = useTeamProfile(user, team);
  void profile.update({ displayName: "Ada" });
  return [
    one?.displayName ?? "",
    String(canInvite),
    ...projectWide.map((p) => p.id),
    ...useTeamInvitations(team).map((i) => i.recipientEmail),
  ];
}

export function ServerTeams({ user, team }: { user: CurrentServerUser; team: ServerTeam }): Json[] {
  const teams: ServerTeam[] = useTeams(user);
  const all: ServerTeam[] = useTeams();
  const byId: ServerTeam | null = useTeam(all[0]!.id);
  const members = useTeamUsers(team);
  return [teams.length, byId?.serverMetadata ?? null, members[0]?.serverMetadata ?? null, useTeamPermissionDefinitions().length];
}
