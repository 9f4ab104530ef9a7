/**
 * The signed-in user's selected team, as a button opening a menu of their
 * teams (keyboard: see use-menu.ts): choosing one selects it, and — when the
 * project lets clients create teams — "Create a team…" asks for a name.
 * Renders nothing for a signed-out visitor.
 */
import type { CurrentUser, Team } from "@latchkey/js";
import { useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useProjectOnceLoaded } from "../use-project.ts";
import { useUser } from "../use-user.ts";
import { Alert, Field, submitTo, useAction, useLoaded } from "./parts.tsx";
import { useMenu } from "./use-menu.ts";

export interface SelectedTeamSwitcherProps {
  /** The team to show as selected (default: the user's selected team). */
  selectedTeam?: Team;
  /** Where to go after choosing (or creating) a team, e.g. `(team) => \`/teams/${team.id}\``. */
  urlMap?: (team: Team) => string;
  /** Choosing a team only navigates (with `urlMap`); the user's selected team stays. */
  noUpdateSelectedTeam?: boolean;
}

export function SelectedTeamSwitcher(props: SelectedTeamSwitcherProps) {
  const user = useUser();
  return user ? <Switcher user={user} {...props} /> : null;
}

function Switcher({ user, selectedTeam, urlMap, noUpdateSelectedTeam }: SelectedTeamSwitcherProps & { user: CurrentUser }) {
  const app = useStackApp();
  const project = useProjectOnceLoaded();
  const teams = useLoaded(user._teamsEntry());
  const menu = useMenu();
  const [creating, setCreating] = useState(false);
  const shown = selectedTeam ?? user.selectedTeam;

  const go = async (team: Team) => {
    if (urlMap) await app.redirectToUrl(urlMap(team));
  };
  const choose = useAction(async (team: Team) => {
    menu.close();
    if (!noUpdateSelectedTeam && team.id !== user.selectedTeam?.id) await user.setSelectedTeam(team);
    await go(team);
  });

  return (
    <span className="lk-root lk-team-switcher">
      <button
        {...menu.buttonProps}
        className="lk-button lk-button-secondary"
        aria-label={shown ? `Selected team: ${shown.displayName}` : "Select a team (none selected)"}
      >
        {shown?.displayName ?? "Select a team"} <span aria-hidden="true">▾</span>
      </button>
      {menu.open ? (
        <div {...menu.menuProps} aria-label="Teams" className="lk-menu lk-menu-start">
          {teams.value === null ? (
            <div className="lk-menu-header lk-muted">{teams.error ?? "Loading…"}</div>
          ) : teams.value.length === 0 ? (
            <div className="lk-menu-header lk-muted">You are not in a team yet.</div>
          ) : (
            teams.value.map((team) => (
              <button
                key={team.id}
                type="button"
                role="menuitemradio"
                aria-checked={team.id === shown?.id}
                className="lk-menu-item"
                onClick={() => void choose.run(team)}
              >
                {team.displayName}
              </button>
            ))
          )}
          {project?.config.clientTeamCreationEnabled ? (
            <button
              type="button"
              role="menuitem"
              className="lk-menu-item lk-menu-separated"
              onClick={() => {
                menu.setOpen(false);
                setCreating(true);
              }}
            >
              Create a team…
            </button>
          ) : null}
        </div>
      ) : null}
      {creating ? <CreateTeamForm user={user} onCreated={go} onClose={() => setCreating(false)} /> : null}
      <Alert>{choose.error}</Alert>
    </span>
  );
}

/** A small dialog under the switcher: the new team's name. The server selects a team for the user who creates it. */
function CreateTeamForm({ user, onCreated, onClose }: { user: CurrentUser; onCreated(team: Team): Promise<void>; onClose(): void }) {
  const [name, setName] = useState("");
  const create = useAction(async () => {
    const team = await user.createTeam({ displayName: name.trim() });
    onClose();
    await onCreated(team);
  });
  return (
    <div
      role="dialog"
      aria-label="Create a team"
      className="lk-menu lk-menu-start"
      onKeyDown={(event) => {
        if (event.key === "Escape") onClose();
      }}
    >
      <form className="lk-form lk-menu-form" onSubmit={submitTo(create.run)}>
        <Field label="Team name" required maxLength={256} autoFocus value={name} onChange={(e) => setName(e.target.value)} />
        <Alert>{create.error}</Alert>
        <span className="lk-row">
          <button className="lk-button" type="submit" disabled={create.busy || name.trim() === ""}>
            Create team
          </button>
          <button className="lk-button lk-button-secondary" type="button" onClick={onClose}>
            Cancel
          </button>
        </span>
      </form>
    </div>
  );
}
