/**
 * A live preview of TSX being edited: the server's sandbox renders it a
 * moment after typing stops, and only the latest answer is shown, so a slow
 * render of older text never replaces a newer one.
 */
import type { StackAdminApp } from "@latchkey/js";
import { useEffect, useRef, useState } from "react";
import { errorText } from "../../lib/error-text.ts";

export type PreviewRequest = Parameters<StackAdminApp["getEmailPreview"]>[0];

export interface Preview {
  html: string | null;
  subject: string | null;
  /** The render error in words (the last good preview stays shown). */
  error: string | null;
  pending: boolean;
}

const DEBOUNCE_MILLIS = 400;

export function useEmailPreview(app: StackAdminApp, request: PreviewRequest | null): Preview {
  const [preview, setPreview] = useState<Preview>({ html: null, subject: null, error: null, pending: request !== null });
  const latest = useRef(0);
  const key = JSON.stringify(request);
  useEffect(() => {
    if (request === null) return;
    const call = ++latest.current;
    setPreview((p) => ({ ...p, pending: true }));
    const timer = setTimeout(() => {
      app.getEmailPreview(request).then(
        (rendered) => {
          if (call === latest.current) setPreview({ html: rendered.html, subject: rendered.subject, error: null, pending: false });
        },
        (error: unknown) => {
          if (call === latest.current) setPreview((p) => ({ ...p, error: errorText(error), pending: false }));
        },
      );
    }, DEBOUNCE_MILLIS);
    return () => clearTimeout(timer);
    // `key` stands for the request's content.
  }, [app, key]);
  return preview;
}
