/**
 * Impersonation: a one-hour session for the user, opened in the project's
 * own app in a new tab (its impersonate page signs in with the tokens from
 * the link's fragment and shows a banner while it lasts).
 */
import { impersonationLink, type ServerUser } from "@latchkey/js";
import { useState } from "react";
import { useAction } from "../../../lib/use-action.ts";
import { ActionStatus } from "../../../ui/states.tsx";
import type { HostApp } from "../../../lib/host-app.tsx";

const IMPERSONATION_MILLIS = 60 * 60 * 1000;

export function ImpersonateButton({ user, host, onStarted }: { user: ServerUser; host: HostApp; onStarted: () => void }) {
  const [blocked, setBlocked] = useState(false);
  const start = useAction(async (tab: Window, handlerUrl: string) => {
    try {
      const session = await user.createSession({ isImpersonation: true, expiresInMillis: IMPERSONATION_MILLIS });
      tab.location.href = impersonationLink(`${handlerUrl}/impersonate`, await session.getTokens());
    } catch (caught) {
      tab.close();
      throw caught;
    }
    onStarted();
    return "Impersonation opened in a new tab.";
  });
  const open = () =>
    host.withHandlerUrl((handlerUrl) => {
      // Opened now, while the click still counts, so pop-up blockers let it through; it gets its address once the session exists.
      const tab = window.open("", "_blank");
      setBlocked(!tab);
      if (!tab) return;
      tab.opener = null;
      void start.run(tab, handlerUrl);
    });
  return (
    <div className="impersonate">
      <button type="button" className="button button-secondary" disabled={start.pending} onClick={open}>
        {start.pending ? "Opening…" : "Impersonate"}
      </button>
      <ActionStatus
        error={blocked ? "The browser blocked the new tab. Allow pop-ups for the dashboard and try again." : start.error}
        done={start.done}
      />
    </div>
  );
}
