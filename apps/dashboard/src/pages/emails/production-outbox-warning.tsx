/**
 * A project in production mode whose mail still ends in the outbox is
 * misconfigured: its users get no sign-in or reset mail, and the outbox keeps
 * no body for them to be read from. The newest handed-over mail tells.
 */
import type { StackAdminApp } from "@latchkey/js";
import { useLoad } from "../../lib/use-load.ts";

export function ProductionOutboxWarning({ app }: { app: StackAdminApp }) {
  const sent = useLoad(() => app.listSentEmails(), [app]);
  const newest = sent.data?.find((m) => m.status === "sent" || m.status === "outbox");
  if (newest?.status !== "outbox") return null;
  return (
    <p className="notice notice-warning" role="alert">
      This project is in production mode, but its mail is not delivered: this server has no shared SMTP server, so its mail stays in the
      outbox, without its body. Set up your own SMTP server below.
    </p>
  );
}
