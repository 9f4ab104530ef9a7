/**
 * Whether a user must verify their e-mail address before their sign-in
 * counts. The server takes this setting but never shows it back, so the
 * page cannot say what it is now: it says what was last saved here, once
 * the server accepted it.
 */
import { useState } from "react";
import { useSaveProject } from "../../lib/save-project.ts";
import { Field } from "../../ui/field.tsx";
import { ActionStatus } from "../../ui/states.tsx";

export function EmailVerificationSetting() {
  const save = useSaveProject();
  const [choice, setChoice] = useState<"" | "required" | "optional">("");
  return (
    <form
      className="email-verification"
      onSubmit={(e) => {
        e.preventDefault();
        if (!choice) return;
        void save.run(
          { config: { requireEmailVerification: choice === "required" } },
          choice === "required" ? "Saved: users must verify their e-mail address." : "Saved: verifying the e-mail address is optional.",
        );
      }}
    >
      <Field
        label="E-mail verification"
        hint="Latchkey does not show this setting's current value (new projects start with it optional). Choose one and save it to be sure."
      >
        {(props) => (
          <select {...props} className="input" value={choice} onChange={(e) => setChoice(e.target.value as typeof choice)}>
            <option value="">Choose…</option>
            <option value="required">Required before users can use their account</option>
            <option value="optional">Optional</option>
          </select>
        )}
      </Field>
      <div>
        <button type="submit" className="button button-secondary" disabled={!choice || save.pending}>
          {save.pending ? "Saving…" : "Save"}
        </button>
      </div>
      <ActionStatus error={save.error} done={save.done} />
    </form>
  );
}
