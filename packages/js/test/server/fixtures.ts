/** A project with keys, made through the SDK the way an owner would. */
import { CurrentInternalUser, StackClientApp, type AdminOwnedProject, type StackClientAppOptions } from "../../src/index.ts";
import { createMailingTestServer, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { PASSWORD, SEED_KEYS, startServer, uniqueEmail, type TestServer } from "./support.ts";

export interface SdkProject {
  id: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  owner: CurrentInternalUser;
  /** The project as its owner holds it (`project.app` administers it with the owner's session). */
  project: AdminOwnedProject;
}

export async function createSdkProject(baseUrl: string, config: Record<string, unknown> = {}): Promise<SdkProject> {
  const owner = await signUpOwner(baseUrl);
  const project = await owner.createProject({ displayName: "SDK test project", config });
  const keys = await project.app.createInternalApiKey({
    description: "tests",
    expiresAt: new Date(Date.now() + 3_600_000),
    hasPublishableClientKey: true,
    hasSecretServerKey: true,
    hasSuperSecretAdminKey: true,
  });
  return {
    id: project.id,
    publishableClientKey: keys.publishableClientKey!,
    secretServerKey: keys.secretServerKey!,
    superSecretAdminKey: keys.superSecretAdminKey!,
    owner,
    project,
  };
}

/** A server listening on loopback and a project on it (`config` is the project's), as most suites start. */
export async function startServerWithProject(
  config: Record<string, unknown> = {},
): Promise<{ server: TestServer; baseUrl: string; project: SdkProject }> {
  const { server, baseUrl } = await startServer();
  try {
    return { server, baseUrl, project: await createSdkProject(baseUrl, config) };
  } catch (error) {
    await server.close();
    throw error;
  }
}

/** The same with the server's mail going to an SMTP peer (mail-fixtures.ts), for suites that read mailed codes. */
export async function startMailingServerWithProject(
  config: Record<string, unknown> = {},
): Promise<{ mailing: MailingServer; baseUrl: string; project: SdkProject }> {
  const mailing = await createMailingTestServer();
  try {
    const baseUrl = await mailing.server.listen();
    return { mailing, baseUrl, project: await createSdkProject(baseUrl, config) };
  } catch (error) {
    await mailing.close();
    throw error;
  }
}

/** A new project owner, signed up on the internal project. */
export async function signUpOwner(baseUrl: string): Promise<CurrentInternalUser> {
  const internal = new StackClientApp({
    baseUrl,
    projectId: "internal",
    publishableClientKey: SEED_KEYS.publishableClientKey,
    tokenStore: "memory",
  });
  const result = await internal.signUpWithCredential({ email: uniqueEmail("owner"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  const owner = await internal.getUser({ or: "throw" });
  if (!(owner instanceof CurrentInternalUser)) throw new Error("An internal-project user should be a CurrentInternalUser.");
  return owner;
}

/** A client app of `project` keeping its tokens in memory, as a test's end user. */
export function clientAppOf(
  baseUrl: string,
  project: Pick<SdkProject, "id" | "publishableClientKey">,
  options: Partial<StackClientAppOptions> = {},
): StackClientApp {
  return new StackClientApp({
    baseUrl,
    projectId: project.id,
    publishableClientKey: project.publishableClientKey,
    tokenStore: "memory",
    ...options,
  });
}

/** Asks the server for a new access token with `refreshToken` (the raw call, so a test sees the server's own answer). */
export function refreshWith(
  baseUrl: string,
  project: Pick<SdkProject, "id" | "publishableClientKey">,
  refreshToken: string,
): Promise<Response> {
  return fetch(`${baseUrl}/api/v1/auth/sessions/current/refresh`, {
    method: "POST",
    headers: {
      "x-stack-project-id": project.id,
      "x-stack-access-type": "client",
      "x-stack-publishable-client-key": project.publishableClientKey,
      "x-stack-refresh-token": refreshToken,
    },
  });
}
