/** How the project's teams behave: who may create them, a personal team on sign-up, and the permissions new members get. */
import type { AdminPermissionDefinition } from "@latchkey/js";
import { useEffect, useState } from "react";
import { useAdminApp, useCurrentProject, useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { useLoad } from "../../lib/use-load.ts";
import { Toggle } from "../../ui/field.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus, Loaded } from "../../ui/states.tsx";
import "./team-settings.css";

export default function TeamSettingsPage() {
  const project = useCurrentProject();
  const { refresh } = useOwnedProjects();
  const app = useAdminApp();
  const definitions = useLoad(() => app.listTeamPermissionDefinitions(), [app]);
  const write = async (config: Parameters<typeof project.update>[0]["config"]) => {
    await project.update({ config });
    await refresh();
  };
  const save = useAction(async (config: Parameters<typeof write>[0]) => {
    await write(config);
    return "Saved.";
  });
  const { config } = project;
  // A switch shows its new state at once; the project read after saving replaces these.
  const [shown, setShown] = useState<{ clientTeamCreationEnabled?: boolean; createTeamOnSignUp?: boolean }>({});
  useEffect(() => setShown({}), [project]);
  const flip = (setting: "clientTeamCreationEnabled" | "createTeamOnSignUp", on: boolean) => {
    setShown((s) => ({ ...s, [setting]: on }));
    void save.run({ [setting]: on }).then((ok) => {
      if (!ok) setShown((s) => ({ ...s, [setting]: undefined }));
    });
  };
  return (
    <Page title="Team settings" description="How teams are created and what their members may do at first.">
      <Card title="Creating teams">
        <div className="form">
          <Toggle
            label="Users may create teams"
            hint="Signed-in users create teams from your app; otherwise only your servers do."
            checked={shown.clientTeamCreationEnabled ?? config.clientTeamCreationEnabled}
            onChange={(on) => flip("clientTeamCreationEnabled", on)}
          />
          <Toggle
            label="A personal team for each new user"
            hint="Every user who signs up gets a team of their own, with the team-creator permissions."
            checked={shown.createTeamOnSignUp ?? config.createTeamOnSignUp}
            onChange={(on) => flip("createTeamOnSignUp", on)}
          />
          <ActionStatus error={save.error} done={save.done} />
        </div>
      </Card>
      <Loaded load={definitions}>
        {(defs) => (
          <>
            <DefaultPermissions
              key={`creator-${ids(config.teamCreatorDefaultPermissions)}`}
              title="Creator permissions"
              description="What the user who creates a team holds in it."
              definitions={defs}
              current={config.teamCreatorDefaultPermissions.map((p) => p.id)}
              onSave={(chosen) => write({ teamCreatorDefaultPermissions: chosen.map((id) => ({ id })) })}
            />
            <DefaultPermissions
              key={`member-${ids(config.teamMemberDefaultPermissions)}`}
              title="Member permissions"
              description="What everyone who joins a team (added, or by invitation) holds in it."
              definitions={defs}
              current={config.teamMemberDefaultPermissions.map((p) => p.id)}
              onSave={(chosen) => write({ teamMemberDefaultPermissions: chosen.map((id) => ({ id })) })}
            />
          </>
        )}
      </Loaded>
    </Page>
  );
}

function ids(list: readonly { id: string }[]): string {
  return list.map((p) => p.id).join(",");
}

function DefaultPermissions({
  title,
  description,
  definitions,
  current,
  onSave,
}: {
  title: string;
  description: string;
  definitions: AdminPermissionDefinition[];
  current: string[];
  onSave: (chosen: string[]) => Promise<void>;
}) {
  const [chosen, setChosen] = useState(current);
  const save = useAction(async () => {
    await onSave(chosen);
    return "Saved.";
  });
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
        <button type="button" className="button" disabled={!changed || save.pending} onClick={() => void save.run()}>
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
