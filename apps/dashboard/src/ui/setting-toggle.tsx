/**
 * One on/off setting of the current project, saved as soon as it is flipped.
 * The switch shows the server's value: it moves only once the server has
 * saved the change, and stays put (with the server's reason) if it refused.
 */
import type { AdminProjectUpdateOptions } from "@latchkey/js";
import type { ReactNode } from "react";
import { useSaveProject } from "../lib/save-project.ts";
import { Toggle } from "./field.tsx";
import { ActionStatus } from "./states.tsx";
import "./setting-toggle.css";

export function SettingToggle({
  id,
  label,
  hint,
  checked,
  disabled = false,
  update,
}: {
  /** An anchor, so other pages can link straight to this setting. */
  id?: string;
  label: string;
  hint?: ReactNode;
  checked: boolean;
  disabled?: boolean;
  update: (on: boolean) => AdminProjectUpdateOptions;
}) {
  const save = useSaveProject();
  return (
    <div id={id} className="setting-toggle" tabIndex={id ? -1 : undefined}>
      <Toggle
        label={label}
        hint={hint}
        checked={checked}
        disabled={disabled || save.pending}
        onChange={(on) => void save.run(update(on))}
      />
      <ActionStatus pending={save.pending} error={save.error} />
    </div>
  );
}
