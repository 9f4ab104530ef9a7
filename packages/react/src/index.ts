/**
 * @latchkey/react — Latchkey for React apps: `StackProvider` at the top,
 * `useUser()` anywhere below, `StackHandler` on `/handler/*`, and drop-in
 * components. Themable with `--lk-*` CSS variables.
 */
export { StackProvider, useStackApp, type StackProviderProps } from "./provider.tsx";
export { useUser, type UseUserOptions, type UserOfApp } from "./use-user.ts";
export { useProject, useProjectOnceLoaded } from "./use-project.ts";
export { useContactChannels } from "./use-contact-channels.ts";
export { useNotificationCategories } from "./use-notification-categories.ts";
export { usePasskeys } from "./use-passkeys.ts";
export { useOAuthProviders } from "./use-oauth-providers.ts";
export { useConnectedAccount } from "./use-connected-account.ts";
export { useTeams, useTeam, useTeamUsers, useTeamInvitations, useUserTeamInvitations, useTeamProfile } from "./use-teams.ts";
export { usePermissions, usePermission, useTeamPermissionDefinitions, useProjectPermissionDefinitions } from "./use-permissions.ts";
export { useConfig } from "./use-config.ts";
export { useCacheEntry, useCacheSnapshot } from "./use-cache-entry.ts";
export { StackHandler } from "./components/handler.tsx";
export { Impersonate } from "./components/impersonate.tsx";
export { ImpersonationBanner } from "./components/impersonation-banner.tsx";
export { SignIn } from "./components/sign-in.tsx";
export { SignUp, PASSWORDS_DO_NOT_MATCH } from "./components/sign-up.tsx";
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
export { SelectedTeamSwitcher, type SelectedTeamSwitcherProps } from "./components/selected-team-switcher.tsx";
export { TeamInvitation } from "./components/team-invitation.tsx";
export { CliAuthConfirmation, CLI_AUTH_CONFIRMED_STORAGE_KEY } from "./components/cli-auth-confirmation.tsx";
export { ErrorPage as Error, ErrorPage } from "./components/error-page.tsx";
