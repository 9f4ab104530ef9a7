import { defineKnownError } from "./base.ts";

export const ProjectNotFound = defineKnownError("PROJECT_NOT_FOUND", 404, (projectId: string) => ({
  message: `Project ${JSON.stringify(projectId)} not found, or you do not have access to it.`,
  details: { project_id: projectId },
}));

export const SignUpNotEnabled = defineKnownError("SIGN_UP_NOT_ENABLED", 400, () => ({
  message: "Creation of new accounts is not enabled for this project. Ask the project owner to enable it.",
}));

export const PasswordAuthenticationNotEnabled = defineKnownError("PASSWORD_AUTHENTICATION_NOT_ENABLED", 400, () => ({
  message: "Password authentication is not enabled for this project.",
}));

export const PasskeyAuthenticationNotEnabled = defineKnownError("PASSKEY_AUTHENTICATION_NOT_ENABLED", 400, () => ({
  message: "Passkey authentication is not enabled for this project.",
}));

export const AnonymousAccountsNotEnabled = defineKnownError("ANONYMOUS_ACCOUNTS_NOT_ENABLED", 400, () => ({
  message: "Anonymous accounts are not enabled for this project.",
}));
