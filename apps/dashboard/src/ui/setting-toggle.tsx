/**
 * One on/off setting of the current project, saved as soon as it is flipped:
 * a config key (written over the environment's override), a field of the
 * project itself, or any other write. The switch shows the server's value: it
 * moves only once the server has saved the change, and stays put (with the
 * server's reason) if it refused.
 */
import type { AdminProjectUpdateOptions } from "@latchkey/js";
import type { ReactNode } from "react";
import { useUpdateConfig } from "../lib/save-config.ts";
import { useUpdateProject } from "../lib/save-project.ts";
import { useAction } from "../lib/use-action.ts";
import { Toggle } from "./field.tsx";
import { ActionStatus } from "./states.tsx";
import "./setting-toggle.css";

interface ToggleProps {
  /** An anchor, so other pages can link straight to this setting. */
  id?: string;
  label: string;
  hint?: ReactNode;
  checked: boolean;
  disabled?: boolean;
}

/** A config key, e.g. `auth.allowSignUp`. */
export function SettingToggle({ configKey, ...props }: ToggleProps & { configKey: string }) {
  const update = useUpdateConfig();
  return <SavingToggle {...props} write={(on) => update({ [configKey]: on })} />;
}

/** A field of the project that is not a config key (production mode). */
export function ProjectFieldToggle({ update, ...props }: ToggleProps & { update: (on: boolean) => AdminProjectUpdateOptions }) {
  const updateProject = useUpdateProject();
  return <SavingToggle {...props} write={(on) => updateProject(update(on))} />;
}

/** `write` saves the new value and resolves once the page shows it. */
export function SavingToggle({
  id,
  label,
  hint,
  checked,
  disabled = false,
  write,
}: ToggleProps & { write: (on: boolean) => Promise<void> }) {
  const save = useAction(write);
  return (
    <div id={id} className="setting-toggle" tabIndex={id ? -1 : undefined}>
      <Toggle label={label} hint={hint} checked={checked} disabled={disabled || save.pending} onChange={(on) => void save.run(on)} />
      <ActionStatus pending={save.pending} error={save.error} />
    </div>
  );
}
