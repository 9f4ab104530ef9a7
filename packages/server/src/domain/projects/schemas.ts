/** An admin's config patch (the request bodies themselves are in @latchkey/shared). */
import type { ProjectConfigPatch } from "@latchkey/shared";

export type ConfigPatch = ProjectConfigPatch;
