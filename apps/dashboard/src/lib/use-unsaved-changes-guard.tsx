/**
 * Asks before unsaved edits are lost: moving elsewhere in the dashboard waits
 * for "Leave without saving?" in the dashboard's own dialog (Stay / Leave);
 * reloading or closing the tab gets the browser's own question. Render
 * `prompt`; call `release` just before a navigation that loses nothing (the
 * edited thing was just deleted).
 */
import { useEffect, useRef, type ReactElement } from "react";
import { useBlocker } from "react-router";
import { Dialog } from "../ui/dialog.tsx";

export function useUnsavedChangesGuard(dirty: boolean): { prompt: ReactElement; release: () => void } {
  const released = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) =>
      dirty && !released.current && (currentLocation.pathname !== nextLocation.pathname || currentLocation.search !== nextLocation.search),
  );
  useEffect(() => {
    if (!dirty) return;
    // New edits after a release (the editor stayed) are guarded again.
    released.current = false;
    const ask = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // Browsers that predate preventDefault() here ask only when returnValue is set.
      event.returnValue = "";
    };
    window.addEventListener("beforeunload", ask);
    return () => window.removeEventListener("beforeunload", ask);
  }, [dirty]);
  const stay = () => blocker.reset?.();
  const prompt = (
    <Dialog open={blocker.state === "blocked"} title="Leave without saving?" onClose={stay}>
      <div className="confirm-body">
        <p>Your changes here are not saved. Leaving drops them.</p>
      </div>
      <div className="dialog-actions">
        <button type="button" className="button button-secondary" onClick={stay}>
          Stay
        </button>
        <button type="button" className="button button-danger" onClick={() => blocker.proceed?.()}>
          Leave
        </button>
      </div>
    </Dialog>
  );
  return { prompt, release: () => (released.current = true) };
}
