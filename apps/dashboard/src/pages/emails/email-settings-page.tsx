/**
 * Where the project's mail goes out (the config's `emails.server`): the
 * server's shared SMTP server or the project's own; and a test send through
 * either. The saved SMTP password is never put into the page's fields: its
 * field starts empty, and empty keeps it (for the saved host, port and
 * username only) by writing back the mask the config shows for it.
 */
import { useConfig } from "@latchkey/react";
import { useState } from "react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useUpdateConfig } from "../../lib/save-config.ts";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import "./emails.css";
import { ProductionOutboxWarning } from "./production-outbox-warning.tsx";
import { TestSendCard } from "./test-send-card.tsx";

interface SmtpForm {
  host: string;
  port: string;
  username: string;
  /** A new password, or empty to keep the saved one. */
  password: string;
  senderName: string;
  senderEmail: string;
}

export default function EmailSettingsPage() {
  const project = useCurrentProject();
  const updateConfig = useUpdateConfig();
  const maskedPassword = useConfig(project).emails.server.password;
  const current = project.config.emailConfig;
  const saved = current.type === "standard" ? current : null;
  const [type, setType] = useState<"shared" | "standard">(current.type);
  const [smtp, setSmtp] = useState<SmtpForm>(
    current.type === "standard"
      ? {
          host: current.host,
          port: String(current.port),
          username: current.username,
          password: "",
          senderName: current.senderName,
          senderEmail: current.senderEmail,
        }
      : { host: "", port: "587", username: "", password: "", senderName: project.displayName, senderEmail: "" },
  );
  const set = (key: keyof SmtpForm) => (e: React.ChangeEvent<HTMLInputElement>) => setSmtp((s) => ({ ...s, [key]: e.target.value }));
  // The saved password goes only to the server and account it was saved for: never to a newly typed host.
  const sameAccount = saved !== null && saved.host === smtp.host && String(saved.port) === smtp.port && saved.username === smtp.username;
  const savedPassword = sameAccount && saved.password ? saved.password : "";
  const settings = { ...smtp, port: Number(smtp.port), password: smtp.password || savedPassword };
  const save = useAction(async () => {
    const { host, port, username, senderName, senderEmail } = settings;
    const password = smtp.password || (savedPassword ? maskedPassword : undefined);
    await updateConfig({
      "emails.server":
        type === "shared"
          ? { isShared: true }
          : { isShared: false, provider: "smtp", host, port, username, senderName, senderEmail, ...(password ? { password } : {}) },
    });
    setSmtp((s) => ({ ...s, password: "" }));
    return "E-mail settings saved.";
  });
  return (
    <Page title="E-mail settings" description="Choose the SMTP server your project's mail goes out through.">
      {project.isProductionMode && current.type === "shared" ? <ProductionOutboxWarning app={project.app} /> : null}
      <Card title="E-mail server">
        <form
          className="form"
          onSubmit={(e) => {
            e.preventDefault();
            void save.run();
          }}
        >
          <fieldset className="fieldset">
            <legend>Send mail through</legend>
            <label className="radio">
              <input type="radio" name="email-server" checked={type === "shared"} onChange={() => setType("shared")} />
              <span>
                The shared server
                <span className="field-hint"> — set up by whoever runs this Latchkey server; without one, mail stays in the Outbox.</span>
              </span>
            </label>
            <label className="radio">
              <input type="radio" name="email-server" checked={type === "standard"} onChange={() => setType("standard")} />
              <span>
                Your own SMTP server <span className="field-hint"> — needed for custom templates and drafts.</span>
              </span>
            </label>
          </fieldset>
          {type === "standard" ? (
            <div className="smtp-grid">
              <Field label="Host">{(p) => <input {...p} className="input" required value={smtp.host} onChange={set("host")} />}</Field>
              <Field label="Port">
                {(p) => (
                  <input {...p} className="input" required type="number" min={1} max={65535} value={smtp.port} onChange={set("port")} />
                )}
              </Field>
              <Field label="Username">
                {(p) => <input {...p} className="input" autoComplete="off" value={smtp.username} onChange={set("username")} />}
              </Field>
              <Field
                label="Password"
                hint={
                  savedPassword
                    ? "Leave this empty to keep the saved password."
                    : saved?.password
                      ? "The saved password is kept only for the saved host, port and username."
                      : undefined
                }
              >
                {(p) => (
                  <input
                    {...p}
                    className="input"
                    type="password"
                    autoComplete="new-password"
                    placeholder={savedPassword ? "A password is saved" : undefined}
                    value={smtp.password}
                    onChange={set("password")}
                  />
                )}
              </Field>
              <Field label="Sender name">
                {(p) => <input {...p} className="input" required value={smtp.senderName} onChange={set("senderName")} />}
              </Field>
              <Field label="Sender e-mail">
                {(p) => <input {...p} className="input" required type="email" value={smtp.senderEmail} onChange={set("senderEmail")} />}
              </Field>
            </div>
          ) : null}
          <ActionStatus error={save.error} done={save.done} />
          <div>
            <button type="submit" className="button" disabled={save.pending}>
              {save.pending ? "Saving…" : "Save"}
            </button>
          </div>
        </form>
      </Card>
      <TestSendCard app={project.app} settings={type === "shared" ? null : settings} />
    </Page>
  );
}
