/** A page with a title, a message and up to two buttons (e.g. "You are signed in" with "Go home"). */
import type { ReactNode } from "react";
import { useAction, Alert } from "./parts.tsx";

export interface MessageCardProps {
  title: string;
  children?: ReactNode;
  /** Fill the viewport, the card in its middle. */
  fullPage?: boolean;
  primaryButtonText?: string;
  primaryAction?: () => Promise<void> | void;
  secondaryButtonText?: string;
  secondaryAction?: () => Promise<void> | void;
}

export function MessageCard({ title, children, fullPage = false, ...buttons }: MessageCardProps) {
  const primary = useAction(async () => {
    await buttons.primaryAction?.();
  });
  const secondary = useAction(async () => {
    await buttons.secondaryAction?.();
  });
  const card = (
    <div className="lk-root lk-card lk-message-card">
      <h1 className="lk-title">{title}</h1>
      {children}
      <Alert>{primary.error ?? secondary.error}</Alert>
      {buttons.primaryButtonText || buttons.secondaryButtonText ? (
        <div className="lk-actions">
          {buttons.secondaryButtonText ? (
            <button type="button" className="lk-button lk-button-secondary" disabled={secondary.busy} onClick={() => void secondary.run()}>
              {buttons.secondaryButtonText}
            </button>
          ) : null}
          {buttons.primaryButtonText ? (
            <button type="button" className="lk-button" disabled={primary.busy} onClick={() => void primary.run()}>
              {buttons.primaryButtonText}
            </button>
          ) : null}
        </div>
      ) : null}
    </div>
  );
  return fullPage ? <div className="lk-full-page">{card}</div> : card;
}
