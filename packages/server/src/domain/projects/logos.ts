import type { ProjectFields } from "./manage.ts";

/** A project's image fields: a `data:` URL written to one is stored and served by us (capabilities/images/). */
export const LOGO_FIELDS = [
  "logo_url",
  "logo_full_url",
  "logo_dark_mode_url",
  "logo_full_dark_mode_url",
] as const satisfies readonly (keyof ProjectFields)[];
