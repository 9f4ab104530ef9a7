/**
 * The app as an OAuth client of Latchkey: its client id is the project id
 * (optionally `<project>#<branch>`), its client secret the project's
 * publishable key, or the sentinel `__stack_public_client__` when the
 * project requires no key. The token endpoint and the authorize endpoint
 * check them the same way.
 */
import { DEFAULT_BRANCH_ID, KnownErrors, PUBLIC_CLIENT_SECRET_SENTINEL } from "@latchkey/shared";
import type { Services } from "../../../services.ts";
import { checkProjectKey } from "../../api-keys/key-check.ts";
import type { ProjectRow } from "../../projects/project-row.ts";

export interface OAuthClient {
  project: ProjectRow;
  branchId: string;
}

/**
 * `wrongKey`: what a secret that is not a live publishable key of the
 * project answers with. The token endpoint calls it a bad client secret
 * (INVALID_OAUTH_CLIENT_ID_OR_SECRET); the authorize endpoint, which the
 * browser opens with the SDK's key, reports the key itself
 * (INVALID_PUBLISHABLE_CLIENT_KEY), as headers with a bad key do.
 */
export async function authenticateOAuthClient(
  services: Services,
  clientId: string,
  clientSecret: string,
  wrongKey: "client" | "publishable_key" = "client",
): Promise<OAuthClient> {
  const [projectId, branchId = DEFAULT_BRANCH_ID] = clientId.split("#") as [string, string | undefined];
  const project = await services.projects.get(projectId);
  if (!project) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  // Every project has exactly one branch today; to an OAuth client another one is a client id that does not exist.
  if (branchId !== DEFAULT_BRANCH_ID) throw new KnownErrors.InvalidOAuthClientIdOrSecret(clientId);
  const key = clientSecret === PUBLIC_CLIENT_SECRET_SENTINEL ? null : clientSecret;
  await checkClientKey(services, project, key, () =>
    wrongKey === "client"
      ? new KnownErrors.InvalidOAuthClientIdOrSecret(clientId)
      : new KnownErrors.InvalidPublishableClientKey(project.id),
  );
  return { project, branchId };
}

/**
 * The publishable key the app presented (null: none, the public-client
 * sentinel), against the project as it is now; the callback checks it
 * again, so a key revoked during a sign-in ends it.
 */
export async function checkClientKey(services: Services, project: ProjectRow, key: string | null, wrongKey: () => Error): Promise<void> {
  if (key === null) {
    if (project.config.require_publishable_client_key) throw new KnownErrors.PublishableClientKeyRequiredForProject(project.id);
  } else if (!(await checkProjectKey(services, project.id, "publishable_client_key", key))) {
    throw wrongKey();
  }
}
