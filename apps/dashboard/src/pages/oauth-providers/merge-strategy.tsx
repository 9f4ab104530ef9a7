/** What happens when someone signs in with a provider using an e-mail address that already has an account. */
import type { AdminProjectConfig } from "@latchkey/js";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useSaveConfig } from "../../lib/save-config.ts";
import { Card } from "../../ui/page.tsx";
import { ActionStatus } from "../../ui/states.tsx";

type Strategy = AdminProjectConfig["oauthAccountMergeStrategy"];

const STRATEGIES: { id: Strategy; label: string; explanation: string }[] = [
  {
    id: "link_method",
    label: "Add the provider to the existing account",
    explanation:
      "The person signs in to the account that has the address, and can use the provider from then on. Only when both the account's address and the provider's are verified; otherwise the sign-in is refused.",
  },
  {
    id: "raise_error",
    label: "Refuse the sign-in",
    explanation: "The person is told that an account already uses the address, and signs in the way they did before.",
  },
  {
    id: "allow_duplicates",
    label: "Create a separate account",
    explanation: "A new account is made. Both accounts show the address, but only the first one can use it to sign in.",
  },
];

export function MergeStrategyCard() {
  const current = useCurrentProject().config.oauthAccountMergeStrategy;
  const save = useSaveConfig();
  return (
    <Card
      title="Accounts with the same e-mail address"
      description="When someone signs in with a provider and its e-mail address already belongs to an account of this project:"
    >
      <fieldset className="fieldset merge-strategies" disabled={save.pending}>
        <legend className="visually-hidden">Account merge strategy</legend>
        {STRATEGIES.map((s) => (
          <label key={s.id} className="merge-strategy">
            <input
              type="radio"
              name="merge-strategy"
              value={s.id}
              checked={current === s.id}
              onChange={() => void save.run({ "auth.oauth.accountMergeStrategy": s.id })}
            />
            <span>
              <span className="merge-strategy-label">{s.label}</span>
              <span className="field-hint">{s.explanation}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <ActionStatus pending={save.pending} error={save.error} />
    </Card>
  );
}
