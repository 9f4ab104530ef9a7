/** Request fields shared by the theme, template, draft and preview routes. */
import { DISPLAY_NAME_MAX_LENGTH } from "@latchkey/shared";
import { z } from "zod";

/** Generous for a hand-written e-mail, small enough that one request cannot bloat the database. */
export const TSX_SOURCE_MAX_LENGTH = 200_000;

export const displayNameField = z.string().min(1).max(DISPLAY_NAME_MAX_LENGTH);
export const tsxSourceField = z.string().min(1).max(TSX_SOURCE_MAX_LENGTH);
/** Template variables: a JSON object of any values. */
export const variablesField = z.record(z.string(), z.unknown());

export { themeIdSchema } from "./theme-choice.ts";
