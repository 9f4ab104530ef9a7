/**
 * Where the project's own app lives, for links into it (impersonation,
 * e-mail verification and password-reset links, team invitations): its
 * first concrete trusted domain with that domain's handler path (a wildcard
 * domain names no page to open), else the URL the owner gave, remembered per
 * project in this browser. Never the dashboard's own pages: they belong to
 * another project.
 */
import type { AdminOwnedProject } from "@latchkey/js";
import { useCallback, useRef, useState, type ReactNode } from "react";
import { Dialog } from "../ui/dialog.tsx";
import { Field } from "../ui/field.tsx";

const DEFAULT_APP_URL = "http://localhost:5173";
const DEFAULT_HANDLER_PATH = "/handler";

export interface HostApp {
  /** Runs `then` with the URL of the app's handler pages (no trailing slash), asking the owner first when it is not known. */
  withHandlerUrl(then: (handlerUrl: string) => void): void;
  /** The dialog that asks; render it once. */
  dialog: ReactNode;
}

function storageKey(projectId: string): string {
  return `latchkey-dashboard-app-url:${projectId}`;
}

/** The URL of the app's handler pages when it is known without asking, else null. */
export function knownHandlerUrl(project: AdminOwnedProject): string | null {
  const domain = project.config.domains.find((entry) => !entry.domain.includes("*"));
  if (domain) return join(domain.domain, domain.handlerPath);
  const remembered = localStorage.getItem(storageKey(project.id));
  return remembered ? join(remembered, DEFAULT_HANDLER_PATH) : null;
}

function join(origin: string, path: string): string {
  return origin.replace(/\/+$/, "") + "/" + path.replace(/^\/+|\/+$/g, "");
}

export function useHostApp(project: AdminOwnedProject): HostApp {
  const [asking, setAsking] = useState(false);
  const [url, setUrl] = useState(DEFAULT_APP_URL);
  const [error, setError] = useState<string | null>(null);
  const pending = useRef<((handlerUrl: string) => void) | null>(null);

  const withHandlerUrl = useCallback(
    (then: (handlerUrl: string) => void) => {
      const known = knownHandlerUrl(project);
      if (known) return then(known);
      pending.current = then;
      setAsking(true);
    },
    [project],
  );

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    let origin: string;
    try {
      const parsed = new URL(url);
      if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw new Error();
      origin = parsed.origin;
    } catch {
      setError("Enter the app's address, starting with http:// or https://.");
      return;
    }
    localStorage.setItem(storageKey(project.id), origin);
    setAsking(false);
    const then = pending.current;
    pending.current = null;
    then?.(join(origin, DEFAULT_HANDLER_PATH));
  };

  const dialog = (
    <Dialog open={asking} title="Where does your app run?" onClose={() => setAsking(false)}>
      <form className="form" onSubmit={submit}>
        <p className="muted">
          This project has no trusted domain that names one address (wildcards do not), so the dashboard does not know your app's address.
          It is remembered in this browser for this project; add a trusted domain to use it everywhere.
        </p>
        <Field label="App URL" hint={`Its pages are expected under ${DEFAULT_HANDLER_PATH}.`} error={error}>
          {(props) => <input {...props} className="input" type="url" required value={url} onChange={(e) => setUrl(e.target.value)} />}
        </Field>
        <div className="dialog-actions">
          <button type="button" className="button button-secondary" onClick={() => setAsking(false)}>
            Cancel
          </button>
          <button type="submit" className="button">
            Continue
          </button>
        </div>
      </form>
    </Dialog>
  );
  return { withHandlerUrl, dialog };
}
