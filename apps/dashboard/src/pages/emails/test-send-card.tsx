/**
 * A test send through the server chosen above, saved or not: the project's own
 * SMTP settings are tried at once; the shared server is tried the way the
 * project's mail goes out, so without any SMTP server the test lands in the
 * Outbox, and the card says so and leads there.
 */
import type { SendTestEmailResult, SmtpSettings, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { Link } from "react-router";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";

/** `settings`: the project's own SMTP server to try, or null for the shared server. */
export function TestSendCard({ app, settings }: { app: StackAdminApp; settings: SmtpSettings | null }) {
  const shared = settings === null;
  const [recipient, setRecipient] = useState("");
  const [result, setResult] = useState<(SendTestEmailResult & { to: string; shared: boolean }) | null>(null);
  const test = useAction(async () => {
    setResult(null);
    const answer = await app.sendTestEmail({ recipientEmail: recipient, emailConfig: settings ?? { type: "shared" } });
    setResult({ ...answer, to: recipient, shared });
  });
  return (
    <Card
      title="Send a test e-mail"
      description={
        shared
          ? "Sends a test the way your project's mail goes out through the shared server; it is listed under Sent."
          : "Tries the SMTP settings above at once (saved or not) and tells you what the server answered."
      }
    >
      <form
        className="form"
        onSubmit={(e) => {
          e.preventDefault();
          void test.run();
        }}
      >
        <Field label="Send the test to">
          {(p) => <input {...p} className="input" type="email" required value={recipient} onChange={(e) => setRecipient(e.target.value)} />}
        </Field>
        <ActionStatus error={test.error} />
        {result ? <TestResult result={result} /> : null}
        <div>
          <button type="submit" className="button button-secondary" disabled={test.pending}>
            {test.pending ? "Sending…" : "Send test e-mail"}
          </button>
        </div>
      </form>
    </Card>
  );
}

function TestResult({ result }: { result: SendTestEmailResult & { to: string; shared: boolean } }) {
  if (!result.success)
    return (
      <p className="notice notice-error" role="alert">
        {result.shared ? "The shared server" : "The SMTP server"} did not take it: {result.errorMessage ?? "no reason given"}
      </p>
    );
  if (result.deliveredTo === "outbox")
    return (
      <p className="notice notice-success" role="status">
        <span>
          No SMTP server is set up, so the test e-mail to {result.to} was kept in the Outbox instead of being delivered, as all your
          project's mail is for now.{" "}
          <Link to="../outbox" relative="path">
            Open the Outbox
          </Link>
        </span>
      </p>
    );
  return (
    <p className="notice notice-success" role="status">
      The test e-mail was sent to {result.to}.
    </p>
  );
}
