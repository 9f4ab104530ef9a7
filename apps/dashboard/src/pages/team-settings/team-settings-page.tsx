/** How the project's teams behave: who may create them, a personal team on sign-up, and the permissions new members get. */
import type { AdminPermissionDefinition } from "@latchkey/js";
import { useState } from "react";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useSaveConfig } from "../../lib/save-config.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Toggle } from "../../ui/field.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { SettingToggle } from "../../ui/setting-toggle.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";
import "./team-settings.css";

export default function TeamSettingsPage() {
  const project = useCurrentProject();
  const app = useAdminApp();
  const definitions = useLoad(() => app.listTeamPermissionDefinitions(), [app]);
  const { config } = project;
  return (
    <Page title="Team settings" description="How teams are created and what their members may do at first.">
      <Card title="Creating teams">
        <div className="form">
          <SettingToggle
            label="Users may create teams"
            hint="Signed-in users create teams from your app; otherwise only your servers do."
            checked={config.clientTeamCreationEnabled}
            configKey="teams.allowClientTeamCreation"
          />
          <SettingToggle
            label="A personal team for each new user"
            hint="Every user who signs up gets a team of their own, with the team-creator permissions."
            checked={config.createTeamOnSignUp}
            configKey="teams.createPersonalTeamOnSignUp"
          />
        </div>
      </Card>
      <Loaded load={definitions}>
        {(defs) => (
          <>
            <DefaultPermissions
              title="Creator permissions"
              description="What the user who creates a team holds in it."
              definitions={defs}
              setting="teamCreatorDefaultPermissions"
            />
            <DefaultPermissions
              title="Member permissions"
              description="What everyone who joins a team (added, or by invitation) holds in it."
              definitions={defs}
              setting="teamMemberDefaultPermissions"
            />
          </>
        )}
      </Loaded>
    </Page>
  );
}

/** Where each list is kept in the config: a set of permission ids. */
const CONFIG_KEYS = {
  teamCreatorDefaultPermissions: "rbac.defaultPermissions.teamCreator",
  teamMemberDefaultPermissions: "rbac.defaultPermissions.teamMember",
} as const;

function DefaultPermissions({
  title,
  description,
  definitions,
  setting,
}: {
  title: string;
  description: string;
  definitions: AdminPermissionDefinition[];
  setting: "teamCreatorDefaultPermissions" | "teamMemberDefaultPermissions";
}) {
  const current = useCurrentProject().config[setting].map((p) => p.id);
  const [chosen, setChosen] = useState(current);
  // When the server's list changes (saved here, or elsewhere), the switches start again from it; "Saved." stays.
  const [shownFor, setShownFor] = useState(current.join(","));
  if (shownFor !== current.join(",")) {
    setShownFor(current.join(","));
    setChosen(current);
  }
  const save = useSaveConfig();
  const changed = chosen.length !== current.length || chosen.some((id) => !current.includes(id));
  return (
    <Card title={title} description={description}>
      <fieldset className="fieldset default-permissions">
        <legend className="visually-hidden">{title}</legend>
        {definitions.map((def) => (
          <Toggle
            key={def.id}
            label={def.id}
            hint={def.description}
            checked={chosen.includes(def.id)}
            onChange={(on) => setChosen(on ? [...chosen, def.id] : chosen.filter((id) => id !== def.id))}
          />
        ))}
      </fieldset>
      <div className="settings-actions">
        <button
          type="button"
          className="button"
          disabled={!changed || save.pending}
          onClick={() => void save.run({ [CONFIG_KEYS[setting]]: Object.fromEntries(chosen.map((id) => [id, true])) }, "Saved.")}
        >
          Save {title.toLowerCase()}
        </button>
        {changed ? (
          <button type="button" className="button button-secondary" onClick={() => setChosen(current)}>
            Undo changes
          </button>
        ) : null}
      </div>
      <ActionStatus error={save.error} done={changed ? null : save.done} />
    </Card>
  );
}
