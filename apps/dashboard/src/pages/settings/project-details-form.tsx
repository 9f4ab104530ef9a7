/** The project's name, description and logos; each refusal of the server is shown under its field. */
import type { AdminOwnedProject } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useOwnedProjects } from "../../lib/owned-projects.tsx";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { fieldErrorsOf } from "./field-errors.ts";

const LOGOS = [
  { wire: "logo_url", key: "logoUrl", label: "Logo URL", hint: "A square mark, shown where space is tight." },
  { wire: "logo_full_url", key: "logoFullUrl", label: "Full logo URL", hint: "Your mark with its wordmark, shown on sign-in pages." },
  { wire: "logo_dark_mode_url", key: "logoDarkModeUrl", label: "Dark mode logo URL", hint: "The square mark on dark backgrounds." },
  {
    wire: "logo_full_dark_mode_url",
    key: "logoFullDarkModeUrl",
    label: "Dark mode full logo URL",
    hint: "The full logo on dark backgrounds.",
  },
] as const;
type LogoKey = (typeof LOGOS)[number]["key"];

export function ProjectDetailsForm({ project }: { project: AdminOwnedProject }) {
  const { refresh } = useOwnedProjects();
  const [name, setName] = useState(project.displayName);
  const [description, setDescription] = useState(project.description);
  const [logos, setLogos] = useState<Record<LogoKey, string>>({
    logoUrl: project.logoUrl ?? "",
    logoFullUrl: project.logoFullUrl ?? "",
    logoDarkModeUrl: project.logoDarkModeUrl ?? "",
    logoFullDarkModeUrl: project.logoFullDarkModeUrl ?? "",
  });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const save = useAction(async () => {
    setFieldErrors({});
    const blankToNull = (v: string) => v.trim() || null;
    try {
      await project.update({
        displayName: name.trim(),
        description: description.trim(),
        logoUrl: blankToNull(logos.logoUrl),
        logoFullUrl: blankToNull(logos.logoFullUrl),
        logoDarkModeUrl: blankToNull(logos.logoDarkModeUrl),
        logoFullDarkModeUrl: blankToNull(logos.logoFullDarkModeUrl),
      });
    } catch (error) {
      const byField = fieldErrorsOf(error);
      if (!byField) throw error;
      setFieldErrors(byField);
      throw new Error("The project was not saved: fix the fields marked above.", { cause: error });
    }
    await refresh();
    return "Saved.";
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  const errorOf = (wire: string, label: string) => (fieldErrors[wire] ? `${label} ${fieldErrors[wire]}` : null);
  // An edited field's error is the old value's: it goes until the next save says otherwise.
  const edited = (wire: string) => setFieldErrors(({ [wire]: _old, ...rest }) => rest);
  return (
    <Card title="Project details" description="How your project appears to you, your team and your users.">
      <form className="form" onSubmit={submit} noValidate>
        <Field label="Project name" error={errorOf("display_name", "Project name")}>
          {(props) => (
            <input
              {...props}
              className="input"
              required
              maxLength={256}
              value={name}
              onChange={(e) => (edited("display_name"), setName(e.target.value))}
            />
          )}
        </Field>
        <Field label="Description" error={errorOf("description", "Description")}>
          {(props) => (
            <textarea
              {...props}
              className="input"
              rows={2}
              value={description}
              onChange={(e) => (edited("description"), setDescription(e.target.value))}
            />
          )}
        </Field>
        <fieldset className="fieldset">
          <legend>Logos</legend>
          <div className="logo-grid">
            {LOGOS.map((logo) => (
              <Field key={logo.key} label={logo.label} hint={logo.hint} error={errorOf(logo.wire, logo.label)}>
                {(props) => (
                  <input
                    {...props}
                    className="input"
                    inputMode="url"
                    placeholder="https://"
                    value={logos[logo.key]}
                    onChange={(e) => (edited(logo.wire), setLogos((l) => ({ ...l, [logo.key]: e.target.value })))}
                  />
                )}
              </Field>
            ))}
          </div>
        </fieldset>
        <ActionStatus error={save.error} done={save.done} />
        <button type="submit" className="button" disabled={save.pending || !name.trim()}>
          {save.pending ? "Saving…" : "Save changes"}
        </button>
      </form>
    </Card>
  );
}
