/** The project's permission definitions, team and project scoped (a tab each, in the URL): nested, created, edited, deleted. */
import type { AdminPermissionDefinition, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { useSearchParams } from "react-router";
import { useAdminApp } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { ConfirmButton } from "../../ui/confirm-button.tsx";
import { Dialog } from "../../ui/dialog.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { Tabs } from "../../ui/tabs.tsx";
import { PermissionForm, type PermissionValues } from "./permission-form.tsx";
import { isSystemPermission, PermissionTree } from "./permission-tree.tsx";
import "./permissions.css";

type Scope = "team" | "project";

/** The admin app's calls for one scope. */
function scopeCalls(app: StackAdminApp, scope: Scope) {
  return scope === "team"
    ? {
        list: app.listTeamPermissionDefinitions,
        create: app.createTeamPermissionDefinition,
        update: app.updateTeamPermissionDefinition,
        remove: app.deleteTeamPermissionDefinition,
      }
    : {
        list: app.listProjectPermissionDefinitions,
        create: app.createProjectPermissionDefinition,
        update: app.updateProjectPermissionDefinition,
        remove: app.deleteProjectPermissionDefinition,
      };
}

const TABS: { id: Scope; label: string; description: string }[] = [
  {
    id: "team",
    label: "Team permissions",
    description: "Held by a member in one team. System permissions ($…) come with every project.",
  },
  { id: "project", label: "Project permissions", description: "Held by a user across the whole project." },
];

export default function PermissionsPage() {
  const app = useAdminApp();
  const [params, setParams] = useSearchParams();
  const scope: Scope = params.get("scope") === "project" ? "project" : "team";
  const calls = scopeCalls(app, scope);
  const definitions = useLoad(() => calls.list(), [app, scope]);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<AdminPermissionDefinition | null>(null);
  const tab = TABS.find((t) => t.id === scope)!;
  const create = async (values: PermissionValues) => {
    await calls.create({ id: values.id, description: values.description, containedPermissionIds: values.containedPermissionIds });
    setCreating(false);
    definitions.reload();
  };
  const update = async (values: PermissionValues) => {
    if (!editing) return;
    await calls.update(editing.id, {
      ...(values.id !== editing.id ? { id: values.id } : {}),
      description: values.description,
      containedPermissionIds: values.containedPermissionIds,
    });
    setEditing(null);
    definitions.reload();
  };
  return (
    <Page
      title="Permissions"
      description="What users may do, as permissions that contain others: granting one grants everything it contains."
      actions={
        <button type="button" className="button" onClick={() => setCreating(true)}>
          New {scope} permission
        </button>
      }
    >
      <Tabs label="Scope" tabs={TABS} selected={scope} onSelect={(id) => setParams(id === "team" ? {} : { scope: id }, { replace: true })}>
        <Card title={tab.label} description={tab.description}>
          <Loaded load={definitions}>
            {(list) =>
              list.length === 0 ? (
                <Empty>
                  <p>No {scope} permissions yet.</p>
                </Empty>
              ) : (
                <PermissionTree
                  definitions={list}
                  actions={(d) =>
                    isSystemPermission(d.id) ? null : (
                      <>
                        <button
                          type="button"
                          className="button button-secondary button-small"
                          aria-label={`Edit ${d.id}`}
                          onClick={() => setEditing(d)}
                        >
                          Edit
                        </button>
                        <ConfirmButton
                          label="Delete"
                          ariaLabel={`Delete ${d.id}`}
                          title="Delete this permission?"
                          confirmLabel="Delete permission"
                          pendingLabel="Deleting…"
                          action={async () => (await calls.remove(d.id), definitions.reload())}
                        >
                          <p>
                            “{d.id}” is taken from everyone who holds it and from the permissions that contain it. This cannot be undone.
                          </p>
                        </ConfirmButton>
                      </>
                    )
                  }
                />
              )
            }
          </Loaded>
        </Card>
      </Tabs>
      <Dialog open={creating} title={`New ${scope} permission`} onClose={() => setCreating(false)}>
        <PermissionForm definitions={definitions.data ?? []} onSubmit={create} />
      </Dialog>
      <Dialog open={editing !== null} title={`Edit ${editing?.id ?? ""}`} onClose={() => setEditing(null)}>
        {editing ? <PermissionForm key={editing.id} editing={editing} definitions={definitions.data ?? []} onSubmit={update} /> : null}
      </Dialog>
    </Page>
  );
}
