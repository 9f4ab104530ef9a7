/** How people sign in and sign up to the project, what they may do with their account, and whether they may create API keys. */
import { Link } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { SettingToggle } from "../../ui/setting-toggle.tsx";
import { EmailVerificationSetting } from "./email-verification-setting.tsx";
import "./auth-methods.css";

export default function AuthMethodsPage() {
  const project = useCurrentProject();
  const c = project.config;
  const noSignIn = !c.credentialEnabled && !c.magicLinkEnabled && !c.passkeyEnabled && c.oauthProviders.length === 0;
  return (
    <Page title="Auth methods" description="Choose how people sign in to your apps, and whether new people may sign up.">
      <Card title="Sign-in methods" description="Your apps' sign-in pages offer every method turned on here.">
        {noSignIn ? (
          <p className="notice notice-warning" role="status">
            No sign-in method is on: nobody can sign in. Turn one on here, or add an{" "}
            <Link to={`/projects/${project.id}/oauth-providers`}>OAuth provider</Link>.
          </p>
        ) : null}
        <div className="settings-list">
          <SettingToggle
            label="Password"
            hint="People sign up and sign in with their e-mail address and a password."
            checked={c.credentialEnabled}
            configKey="auth.password.allowSignIn"
          />
          <SettingToggle
            label="Magic link and one-time code"
            hint="People get an e-mail with a link and a code that signs them in, with no password."
            checked={c.magicLinkEnabled}
            configKey="auth.otp.allowSignIn"
          />
          <SettingToggle
            label="Passkeys"
            hint="People sign in with a passkey saved on their device or password manager, after adding one to their account."
            checked={c.passkeyEnabled}
            configKey="auth.passkey.allowSignIn"
          />
        </div>
        <p className="field-hint auth-methods-more">
          Sign-in with Google, GitHub and other providers is set up on the{" "}
          <Link to={`/projects/${project.id}/oauth-providers`}>OAuth providers</Link> page.
        </p>
      </Card>
      <Card title="Sign-up">
        <div className="settings-list">
          <SettingToggle
            label="Allow sign-up"
            hint="When off, only people who already have an account (or that you create) can sign in."
            checked={c.signUpEnabled}
            configKey="auth.allowSignUp"
          />
          <div className="setting-static">
            <strong>Anonymous sign-in</strong>
            <p className="field-hint">
              Always available to apps that ask for it: a visitor gets an anonymous account that keeps their data until they sign up. There
              is no setting for it; apps that never ask for anonymous users never get any.
            </p>
          </div>
        </div>
      </Card>
      <Card title="Accounts">
        <div className="settings-list">
          <SettingToggle
            label="Let users delete their own account"
            hint="Your apps can offer a “Delete account” button. When off, only your servers can delete users."
            checked={c.clientUserDeletionEnabled}
            configKey="users.allowClientUserDeletion"
          />
          <EmailVerificationSetting />
        </div>
      </Card>
      <Card
        title="API keys"
        description="Your apps can let people create API keys for your own API, and your servers find the user or team a key belongs to."
      >
        <div className="settings-list">
          <SettingToggle
            label="User API keys"
            hint="Users create and revoke their own keys in account settings."
            checked={c.allowUserApiKeys}
            configKey="apiKeys.enabled.user"
          />
          <SettingToggle
            label="Team API keys"
            hint="Team members holding the “manage API keys” permission create and revoke the team's keys."
            checked={c.allowTeamApiKeys}
            configKey="apiKeys.enabled.team"
          />
        </div>
      </Card>
    </Page>
  );
}
