/**
 * @latchkey/react — Latchkey for React apps: `StackProvider` at the top,
 * `useUser()` anywhere below, `StackHandler` on `/handler/*`, and drop-in
 * components. Themable with `--lk-*` CSS variables (or `StackTheme`).
 * Everything @latchkey/js exports (the apps, models, errors and types) is
 * exported here too, so a React app imports from one package.
 */
export * from "@latchkey/js";
export { StackProvider, useStackApp, type StackProviderProps } from "./provider.tsx";
export { useUser, type UseUserOptions, type UserOfApp } from "./use-user.ts";
export { useProject, useProjectOnceLoaded } from "./use-project.ts";
export { useContactChannels } from "./use-contact-channels.ts";
export { useNotificationCategories } from "./use-notification-categories.ts";
export { usePasskeys } from "./use-passkeys.ts";
export { useApiKeys } from "./use-api-keys.ts";
export { useOAuthProviders } from "./use-oauth-providers.ts";
export { useConnectedAccount } from "./use-connected-account.ts";
export { useTeams, useTeam, useTeamUsers, useTeamInvitations, useUserTeamInvitations, useTeamProfile } from "./use-teams.ts";
export { usePermissions, usePermission, useTeamPermissionDefinitions, useProjectPermissionDefinitions } from "./use-permissions.ts";
export { useConfig } from "./use-config.ts";
export { useItem, type ItemHolder, type ItemOfApp } from "./use-item.ts";
export { useProducts, type ProductsHolder } from "./use-products.ts";
export { PurchasePage, type PurchasePageProps } from "./components/purchase-page.tsx";
export { PurchaseReturnPage, type PurchaseReturnPageProps } from "./components/purchase-return-page.tsx";
export { PurchaseButton, type PurchaseButtonProps } from "./components/purchase-button.tsx";
export { useCacheEntry, useCacheSnapshot } from "./use-cache-entry.ts";
export { StackHandler } from "./components/handler.tsx";
export { Impersonate } from "./components/impersonate.tsx";
export { ImpersonationBanner } from "./components/impersonation-banner.tsx";
export { SignIn, CredentialSignIn, MagicLinkSignIn, type SignInProps } from "./components/sign-in.tsx";
export { SignUp, CredentialSignUp, PASSWORDS_DO_NOT_MATCH, type SignUpProps } from "./components/sign-up.tsx";
export { AuthPage, type AuthPageProps } from "./components/auth-page.tsx";
export { MessageCard, type MessageCardProps } from "./components/message-card.tsx";
export { StackTheme, type ThemeConfig, type ThemeColors } from "./components/stack-theme.tsx";
export { UserAvatar, type UserAvatarProps } from "./components/user-avatar.tsx";
export { Onboarding } from "./components/onboarding.tsx";
export { SignOut } from "./components/sign-out.tsx";
export { AccountSettings } from "./components/account-settings.tsx";
export { EmailVerification } from "./components/email-verification.tsx";
export { MagicLinkCallback } from "./components/magic-link-callback.tsx";
export { OAuthCallback } from "./components/oauth-callback.tsx";
export { OAuthButton, OAuthButtonGroup, type OAuthButtonProps } from "./components/oauth-button.tsx";
export { OAuthProviderMark, oauthProviderName, OAUTH_PROVIDER_NAMES } from "./components/oauth-provider-marks.tsx";
export { ConnectedAccountsSection } from "./components/connected-accounts-section.tsx";
export { MFA } from "./components/mfa-page.tsx";
export { ForgotPassword } from "./components/forgot-password.tsx";
export { PasswordReset } from "./components/password-reset.tsx";
export { UserButton } from "./components/user-button.tsx";
export {
  SelectedTeamSwitcher,
  SelectedTeamSwitcher as TeamSwitcher,
  type SelectedTeamSwitcherProps,
  type SelectedTeamSwitcherProps as TeamSwitcherProps,
} from "./components/selected-team-switcher.tsx";
import type { TeamInvitation as SdkTeamInvitation } from "@latchkey/js";
import { TeamInvitation as TeamInvitationPage } from "./components/team-invitation.tsx";
/** The team-invitation page (a component), and as a type the SDK's team invitation. */
export const TeamInvitation = TeamInvitationPage;
export type TeamInvitation = SdkTeamInvitation;
export { CliAuthConfirmation, CLI_AUTH_CONFIRMED_STORAGE_KEY } from "./components/cli-auth-confirmation.tsx";
export { ErrorPage as Error, ErrorPage } from "./components/error-page.tsx";
