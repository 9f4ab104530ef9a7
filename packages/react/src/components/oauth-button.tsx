/**
 * "Sign in with GitHub" and its siblings: one button per provider the
 * project has enabled, on the sign-in and sign-up pages. A click sends the
 * browser to the provider (app.signInWithOAuth); the app's oauth-callback
 * page (oauth-callback.tsx) finishes.
 */
import { useEffect, useState } from "react";
import { useStackApp } from "../provider.tsx";
import { useProjectOnceLoaded } from "../use-project.ts";
import { OAuthProviderMark, oauthProviderName } from "./oauth-provider-marks.tsx";
import { Alert, errorText } from "./parts.tsx";

export interface OAuthButtonProps {
  /** The provider's id: `github`, `google`, … */
  provider: string;
  /** The wording: "Sign in with …" or "Sign up with …" (the flow is the same: the server tells a new user from a known one). */
  type: "sign-in" | "sign-up";
}

export function OAuthButton({ provider, type }: OAuthButtonProps) {
  const app = useStackApp();
  const [busy, setBusy] = useLeavingState();
  const [error, setError] = useState<string | null>(null);
  const start = async () => {
    setBusy(true);
    setError(null);
    try {
      // Resolves only if the browser does not leave; it normally does.
      await app.signInWithOAuth(provider);
    } catch (caught) {
      setError(errorText(caught));
      setBusy(false);
    }
  };
  const name = oauthProviderName(provider);
  return (
    <div className="lk-form">
      <button className="lk-button lk-button-secondary lk-oauth-button" type="button" disabled={busy} onClick={() => void start()}>
        <OAuthProviderMark id={provider} />
        <span>{`${type === "sign-up" ? "Sign up" : "Sign in"} with ${name}`}</span>
      </button>
      <Alert>{error}</Alert>
    </div>
  );
}

/**
 * Whether a control has sent the browser to a provider's page: its state
 * while the page leaves. Back from there, the browser may restore this page
 * as it was left (its back-forward cache), so that state ends then.
 */
export function useLeavingState(): [boolean, (leaving: boolean) => void] {
  const [leaving, setLeaving] = useState(false);
  useEffect(() => {
    const restored = (event: PageTransitionEvent) => {
      if (event.persisted) setLeaving(false);
    };
    window.addEventListener("pageshow", restored);
    return () => window.removeEventListener("pageshow", restored);
  }, []);
  return [leaving, setLeaving];
}

/**
 * A button for each provider the project has enabled (none while its
 * settings load, or when it has none), and the line that separates them
 * from the page's other ways in.
 */
export function OAuthButtonGroup({
  type,
  separated = true,
}: {
  type: OAuthButtonProps["type"];
  /** Whether other ways in follow (the line between is drawn only then). */
  separated?: boolean;
}) {
  const project = useProjectOnceLoaded();
  const providers = project?.config.oauthProviders ?? [];
  if (providers.length === 0) return null;
  return (
    <>
      <div
        className="lk-oauth-buttons"
        role="group"
        aria-label={type === "sign-up" ? "Sign up with another service" : "Sign in with another service"}
      >
        {providers.map(({ id }) => (
          <OAuthButton key={id} provider={id} type={type} />
        ))}
      </div>
      {separated ? (
        <div className="lk-separator" role="separator">
          <span>or</span>
        </div>
      ) : null}
    </>
  );
}
