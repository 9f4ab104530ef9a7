/** Account settings: which kinds of mail the user gets (transactional mail cannot be turned off). */
import type { CurrentUser, NotificationCategory } from "@latchkey/js";
import { useState } from "react";
import { useCacheSnapshot } from "../use-cache-entry.ts";
import { Alert, Section, errorText, useAction } from "./parts.tsx";

export function NotificationsSection({ user }: { user: CurrentUser }) {
  // The SDK's cached list: a changed choice invalidates it, and it re-renders with the server's answer.
  const listed = useCacheSnapshot(user._notificationCategoriesEntry());
  const categories = listed.status === "ok" ? listed.value : null;
  const loadError = listed.status === "error" ? errorText(listed.error) : null;
  // The box shows the new choice at once, until the list read after it arrives (or the change fails).
  const [shown, setShown] = useState<{ over: NotificationCategory[] | null; choices: Record<string, boolean> }>({
    over: null,
    choices: {},
  });
  const choices = shown.over === categories ? shown.choices : {};
  const toggle = useAction(async (category: NotificationCategory, enabled: boolean) => {
    setShown({ over: categories, choices: { ...choices, [category.id]: enabled } });
    try {
      await category.setEnabled(enabled);
    } catch (error) {
      setShown({ over: null, choices: {} });
      throw error;
    }
  });
  return (
    <Section title="Email notifications">
      <Alert>{loadError ?? toggle.error}</Alert>
      {categories === null ? (
        <p className="lk-muted">Loading…</p>
      ) : (
        <ul className="lk-list">
          {categories.map((category) => (
            <li key={category.id} className="lk-list-item">
              <label className="lk-check">
                <input
                  type="checkbox"
                  checked={choices[category.id] ?? category.enabled}
                  disabled={!category.canDisable || toggle.busy}
                  onChange={(event) => void toggle.run(category, event.target.checked)}
                />
                {category.name}
              </label>
              {category.canDisable ? null : <span className="lk-muted">Always sent</span>}
            </li>
          ))}
        </ul>
      )}
    </Section>
  );
}
