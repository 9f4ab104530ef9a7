/** A team's name and profile image, edited in place. */
import type { ServerTeam } from "@latchkey/js";
import { useState, type FormEvent } from "react";
import { useAction } from "../../lib/use-action.ts";
import { Field } from "../../ui/field.tsx";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";
import { TeamAvatar } from "./team-avatar.tsx";

export function TeamProfileCard({ team, onSaved }: { team: ServerTeam; onSaved: () => void }) {
  const [name, setName] = useState(team.displayName);
  const [image, setImage] = useState(team.profileImageUrl ?? "");
  const save = useAction(async () => {
    await team.update({ displayName: name.trim(), profileImageUrl: image.trim() || null });
    onSaved();
    return "Profile saved.";
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    void save.run();
  };
  return (
    <Card title="Profile">
      <form className="form team-profile" onSubmit={submit}>
        <TeamAvatar name={name} imageUrl={image.trim() || null} large />
        <div className="form">
          <Field label="Team name">
            {(props) => <input {...props} className="input" required value={name} onChange={(e) => setName(e.target.value)} />}
          </Field>
          <Field label="Profile image URL" hint="An https address of a square image; empty for the team's initial.">
            {(props) => <input {...props} className="input" type="url" value={image} onChange={(e) => setImage(e.target.value)} />}
          </Field>
          <ActionStatus error={save.error} done={save.done} />
          <div>
            <button type="submit" className="button" disabled={save.pending || !name.trim()}>
              {save.pending ? "Saving…" : "Save profile"}
            </button>
          </div>
        </div>
      </form>
    </Card>
  );
}
