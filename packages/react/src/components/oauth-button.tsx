/**
 * "Sign in with GitHub" and its siblings: one button per provider the
 * project has enabled, on the sign-in and sign-up pages. A click sends the
 * browser to the provider (app.signInWithOAuth); the app's oauth-callback
 * page (oauth-callback.tsx) finishes.
 */
import { useStackApp } from "../provider.tsx";
import { useProjectOnceLoaded } from "../use-project.ts";
import { OAuthProviderMark, oauthProviderName } from "./oauth-provider-marks.tsx";
import { Alert, Separator } from "./parts.tsx";
import { useLeavingAction } from "./use-leaving-action.ts";

export interface OAuthButtonProps {
  /** The provider's id: `github`, `google`, … */
  provider: string;
  /** The wording: "Sign in with …" or "Sign up with …" (the flow is the same: the server tells a new user from a known one). */
  type: "sign-in" | "sign-up";
}

export function OAuthButton({ provider, type }: OAuthButtonProps) {
  const signIn = useOAuthSignIn();
  return (
    <div className="lk-form">
      <ProviderButton provider={provider} type={type} busy={signIn.busy} onClick={() => void signIn.start(provider)} />
      <Alert>{signIn.error}</Alert>
    </div>
  );
}

function useOAuthSignIn() {
  const app = useStackApp();
  return useLeavingAction((provider: string) => app.signInWithOAuth(provider));
}

function ProviderButton({ provider, type, busy, onClick }: OAuthButtonProps & { busy: boolean; onClick(): void }) {
  return (
    <button className="lk-button lk-button-secondary lk-oauth-button" type="button" disabled={busy} onClick={onClick}>
      <OAuthProviderMark id={provider} />
      <span>{`${type === "sign-up" ? "Sign up" : "Sign in"} with ${oauthProviderName(provider)}`}</span>
    </button>
  );
}

/**
 * A button for each provider the project has enabled (none while its
 * settings load, or when it has none), below the page's other ways in and
 * apart from them by a line. They come last because they appear only once
 * the settings have arrived: above a form already on screen, they would push
 * it down under the user's pointer.
 */
export function OAuthButtonGroup({
  type,
  separated = true,
}: {
  type: OAuthButtonProps["type"];
  /** Whether other ways in come before (the line between is drawn only then). */
  separated?: boolean;
}) {
  const project = useProjectOnceLoaded();
  // One for the group: a click on one provider starts a flow, and the others wait for its outcome.
  const signIn = useOAuthSignIn();
  const providers = project?.config.oauthProviders ?? [];
  if (providers.length === 0) return null;
  return (
    <>
      {separated ? <Separator /> : null}
      <div
        className="lk-oauth-buttons"
        role="group"
        aria-label={type === "sign-up" ? "Sign up with another service" : "Sign in with another service"}
      >
        {providers.map(({ id }) => (
          <ProviderButton key={id} provider={id} type={type} busy={signIn.busy} onClick={() => void signIn.start(id)} />
        ))}
      </div>
      <Alert>{signIn.error}</Alert>
    </>
  );
}
