/** Checks shared by the owner routes (routes/internal/projects/), which live on the internal project only. */
import { INTERNAL_PROJECT_ID, KnownErrors, StatusError } from "@latchkey/shared";
import type { RequestAuth } from "./auth.ts";
import { ProductionModeRefused } from "../domain/projects/manage.ts";

export function requireInternalOwner(auth: RequestAuth) {
  if (auth.project.id !== INTERNAL_PROJECT_ID) throw new KnownErrors.ExpectedInternalProject();
  if (!auth.user) throw new KnownErrors.UserAuthenticationRequired();
  return auth.user;
}

/** Runs a project write, answering production-mode problems as 400 text. */
export async function withProductionModeCheck<T>(fn: () => Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (error) {
    if (error instanceof ProductionModeRefused) throw new StatusError(400, error.message);
    throw error;
  }
}
