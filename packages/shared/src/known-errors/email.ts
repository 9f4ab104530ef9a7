import { defineKnownError } from "./base.ts";

export const EmailTemplateAlreadyExists = defineKnownError("EMAIL_TEMPLATE_ALREADY_EXISTS", 409, () => ({
  message: "An e-mail template of this type already exists. Update it instead.",
}));

export const EmailRenderingError = defineKnownError("EMAIL_RENDERING_ERROR", 400, (error: string) => ({
  message: `The e-mail could not be rendered: ${error}`,
  details: { error },
}));

export const RequiresCustomEmailServer = defineKnownError("REQUIRES_CUSTOM_EMAIL_SERVER", 400, () => ({
  message: "This action needs a custom e-mail server. Configure your own SMTP server in the project's e-mail settings.",
}));
