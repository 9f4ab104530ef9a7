/** Whether a user must verify their e-mail address before their sign-in counts: read from the project's config. */
import { useConfig } from "@latchkey/react";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { SettingToggle } from "../../ui/setting-toggle.tsx";

export function EmailVerificationSetting() {
  const config = useConfig(useCurrentProject());
  return (
    <SettingToggle
      label="Require e-mail verification"
      hint="Users must verify their e-mail address before they can use their account; until then, apps see them as restricted."
      checked={config.onboarding.requireEmailVerification}
      configKey="onboarding.requireEmailVerification"
    />
  );
}
