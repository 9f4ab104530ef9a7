/** Request bodies of the endpoints that mail a code and of those that take one back (sign-in, reset, verification). */
import { z } from "zod";
import { emailSchema, urlSchema, verificationCodeSchema } from "../schema-fields.ts";

/** Endpoints that mail a code: the address, and the page the mailed link leads to. */
export const mailCodeBody = z.strictObject({ email: emailSchema, callback_url: urlSchema });
export type MailCodeBody = z.input<typeof mailCodeBody>;

/** Mailing a code to a channel already known: the page the link leads to. */
export const callbackBody = mailCodeBody.pick({ callback_url: true });
export type CallbackBody = z.input<typeof callbackBody>;

/** Endpoints that take a mailed code back. */
export const codeBody = z.strictObject({ code: verificationCodeSchema });
export type CodeBody = z.input<typeof codeBody>;
