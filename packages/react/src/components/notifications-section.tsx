/** Account settings: which kinds of mail the user gets (transactional mail cannot be turned off). */
import type { CurrentUser, NotificationCategory } from "@latchkey/js";
import { useCallback, useEffect, useState } from "react";
import { Alert, Section, errorText, useAction } from "./parts.tsx";

export function NotificationsSection({ user }: { user: CurrentUser }) {
  const [categories, setCategories] = useState<NotificationCategory[] | null>(null);
  const [loadError, setLoadError] = useState<string | null>(null);
  // The box shows the new choice at once; the server's answer then replaces it (or takes it back).
  const [shown, setShown] = useState<Record<string, boolean>>({});
  const load = useCallback(() => {
    user.listNotificationCategories().then(
      (read) => {
        setCategories(read);
        setShown({});
      },
      (caught: unknown) => setLoadError(errorText(caught)),
    );
  }, [user]);
  useEffect(load, [load]);
  const toggle = useAction(async (category: NotificationCategory, enabled: boolean) => {
    setShown((current) => ({ ...current, [category.id]: enabled }));
    try {
      await category.setEnabled(enabled);
    } finally {
      load();
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
                  checked={shown[category.id] ?? category.enabled}
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
