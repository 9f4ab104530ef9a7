/**
 * Request bodies of the endpoints that mail a code (an address and the page
 * the link leads to, or the page alone for a known channel) and of those
 * that take a code back.
 */
import { emailSchema, urlSchema, verificationCodeSchema } from "@latchkey/shared";
import { z } from "zod";

export const mailCodeBody = z.object({ email: emailSchema, callback_url: urlSchema }).strict();

export const callbackBody = z.object({ callback_url: urlSchema }).strict();

export const codeBody = z.object({ code: verificationCodeSchema }).strict();
