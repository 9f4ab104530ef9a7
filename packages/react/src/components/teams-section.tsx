/**
 * Account settings: the user's teams. One team at a time is open for
 * managing (at first the selected team); what its panel offers depends on
 * the user's permissions in it (team-panel.tsx).
 */
import type { CurrentUser } from "@latchkey/js";
import { useState } from "react";
import { Alert, Section, useLoaded } from "./parts.tsx";
import { TeamPanel } from "./team-panel.tsx";

export function TeamsSection({ user }: { user: CurrentUser }) {
  const teams = useLoaded(user._teamsEntry());
  const [chosen, setChosen] = useState<string | null>(null);
  const list = teams.value ?? [];
  const open = list.find((team) => team.id === chosen) ?? list.find((team) => team.id === user.selectedTeam?.id) ?? list[0] ?? null;
  return (
    <Section title="Teams">
      <Alert>{teams.error}</Alert>
      {teams.value === null ? (
        teams.error ? null : (
          <p className="lk-muted">Loading…</p>
        )
      ) : list.length === 0 ? (
        <p className="lk-muted">You are not in a team yet.</p>
      ) : (
        <ul className="lk-list">
          {list.map((team) => (
            <li key={team.id} className="lk-list-item" aria-current={team === open ? "true" : undefined}>
              <span>
                {team.displayName}
                {team.id === user.selectedTeam?.id ? <span className="lk-badge">Selected</span> : null}
              </span>
              <button
                className="lk-button lk-button-secondary"
                type="button"
                aria-label={`Manage ${team.displayName}`}
                aria-pressed={team === open}
                onClick={() => setChosen(team.id)}
              >
                Manage
              </button>
            </li>
          ))}
        </ul>
      )}
      {open ? <TeamPanel key={open.id} user={user} team={open} /> : null}
    </Section>
  );
}
