/** The sign-in or the sign-up page, by `type`: one component for an app's own /sign-in and /sign-up routes. */
import { SignIn, type SignInProps } from "./sign-in.tsx";
import { SignUp, type SignUpProps } from "./sign-up.tsx";

export type AuthPageProps = { type: "sign-in" | "sign-up" } & Pick<SignInProps, "firstTab"> & Omit<SignUpProps, "title">;

export function AuthPage({ type, firstTab, noPasswordRepeat, turnstileSiteKey, extraInfo }: AuthPageProps) {
  return type === "sign-in" ? (
    <SignIn firstTab={firstTab} turnstileSiteKey={turnstileSiteKey} extraInfo={extraInfo} />
  ) : (
    <SignUp noPasswordRepeat={noPasswordRepeat} turnstileSiteKey={turnstileSiteKey} extraInfo={extraInfo} />
  );
}
