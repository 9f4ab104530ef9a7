/** The user's e-mail addresses: which is primary, verified, used to sign in; add, verify, make primary, mail links, delete. */
import type { ContactChannel, ServerUser, StackAdminApp } from "@latchkey/js";
import { useState } from "react";
import { ConfirmButton } from "../../../ui/confirm-button.tsx";
import { useAction } from "../../../lib/use-action.ts";
import { useLoad } from "../../../lib/use-load.ts";
import { Field, Toggle } from "../../../ui/field.tsx";
import { Card } from "../../../ui/page.tsx";
import { ActionStatus, Empty, Loaded } from "../../../ui/states.tsx";
import { Table } from "../../../ui/table.tsx";
import type { HostApp } from "../../../lib/host-app.tsx";

export function ContactChannelsCard({
  app,
  user,
  host,
  onChanged,
}: {
  app: StackAdminApp;
  user: ServerUser;
  host: HostApp;
  onChanged: () => void;
}) {
  const channels = useLoad(() => user.listContactChannels(), [user]);
  const changed = () => (channels.reload(), onChanged());
  return (
    <Card title="Contact channels" description="E-mail addresses of this user.">
      <Loaded load={channels}>
        {(list) =>
          list.length === 0 ? (
            <Empty>
              <p>This user has no e-mail addresses.</p>
            </Empty>
          ) : (
            <Table columns={["Address", "Status"]} actions>
              {list.map((channel) => (
                <ChannelRow key={channel.id} app={app} channel={channel} host={host} onChanged={changed} />
              ))}
            </Table>
          )
        }
      </Loaded>
      <AddChannel user={user} onAdded={changed} />
    </Card>
  );
}

function ChannelRow({
  app,
  channel,
  host,
  onChanged,
}: {
  app: StackAdminApp;
  channel: ContactChannel;
  host: HostApp;
  onChanged: () => void;
}) {
  const act = useAction(async (work: () => Promise<string | void>) => {
    const message = await work();
    onChanged();
    return message;
  });
  const mail = (kind: "verification" | "reset") =>
    host.withHandlerUrl(
      (handlerUrl) =>
        void act.run(async () => {
          if (kind === "verification") {
            await channel.sendVerificationEmail({ callbackUrl: `${handlerUrl}/email-verification` });
            return `Verification e-mail sent to ${channel.value}.`;
          }
          const result = await app.sendForgotPasswordEmail(channel.value, { callbackUrl: `${handlerUrl}/password-reset` });
          if (result.status === "error") throw result.error;
          return `Password-reset e-mail sent to ${channel.value}.`;
        }),
    );
  return (
    <tr>
      <td>
        {channel.value}
        <ActionStatus error={act.error} done={act.done} />
      </td>
      <td>
        <span className="badges">
          {channel.isPrimary ? <span className="badge badge-primary">Primary</span> : null}
          <span className={`badge ${channel.isVerified ? "badge-success" : ""}`}>{channel.isVerified ? "Verified" : "Not verified"}</span>
          {channel.usedForAuth ? <span className="badge">Used to sign in</span> : null}
        </span>
      </td>
      <td>
        <div className="row-actions">
          {channel.isVerified ? null : (
            <>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={act.pending}
                onClick={() => void act.run(() => channel.update({ isVerified: true }))}
              >
                Mark verified
              </button>
              <button
                type="button"
                className="button button-secondary button-small"
                disabled={act.pending}
                onClick={() => mail("verification")}
              >
                Send verification e-mail
              </button>
            </>
          )}
          {channel.isPrimary ? null : (
            <button
              type="button"
              className="button button-secondary button-small"
              disabled={act.pending}
              onClick={() => void act.run(() => channel.update({ isPrimary: true }))}
            >
              Make primary
            </button>
          )}
          <button type="button" className="button button-secondary button-small" disabled={act.pending} onClick={() => mail("reset")}>
            Send password reset
          </button>
          <ConfirmButton
            label="Delete"
            ariaLabel={`Delete ${channel.value}`}
            title="Delete this address?"
            confirmLabel="Delete address"
            pendingLabel="Deleting…"
            disabled={act.pending}
            action={async () => {
              await channel.delete();
              onChanged();
            }}
          >
            <p>
              {channel.value} is removed from this user{channel.usedForAuth ? ", who can then no longer sign in with it" : ""}.
            </p>
          </ConfirmButton>
        </div>
      </td>
    </tr>
  );
}

function AddChannel({ user, onAdded }: { user: ServerUser; onAdded: () => void }) {
  const [email, setEmail] = useState("");
  const [verified, setVerified] = useState(false);
  const [usedForAuth, setUsedForAuth] = useState(true);
  const add = useAction(async () => {
    await user.createContactChannel({ type: "email", value: email.trim(), isVerified: verified, usedForAuth });
    setEmail("");
    onAdded();
    return "Address added.";
  });
  return (
    <form
      className="form inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        void add.run();
      }}
    >
      <h3>Add an address</h3>
      <Field label="New e-mail address">
        {(props) => <input {...props} className="input" type="email" required value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Toggle label="Already verified" checked={verified} onChange={setVerified} />
      <Toggle label="Used to sign in" checked={usedForAuth} onChange={setUsedForAuth} />
      <div className="row-actions">
        <button type="submit" className="button" disabled={add.pending}>
          {add.pending ? "Adding…" : "Add address"}
        </button>
      </div>
      <ActionStatus error={add.error} done={add.done} />
    </form>
  );
}
