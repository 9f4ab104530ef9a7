/** A project with keys, made through the SDK the way an owner would. */
import { StackClientApp, type CurrentInternalUser } from "../../src/index.ts";
import { PASSWORD, SEED_KEYS, uniqueEmail } from "./support.ts";

export interface SdkProject {
  id: string;
  publishableClientKey: string;
  secretServerKey: string;
  superSecretAdminKey: string;
  owner: CurrentInternalUser;
}

export async function createSdkProject(baseUrl: string, config: Record<string, unknown> = {}): Promise<SdkProject> {
  const internal = new StackClientApp({ baseUrl, projectId: "internal", publishableClientKey: SEED_KEYS.publishableClientKey, tokenStore: "memory" });
  await internal.signUpWithCredential({ email: uniqueEmail("owner"), password: PASSWORD, noRedirect: true });
  const owner = (await internal.getUser({ or: "throw" })) as CurrentInternalUser;
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
  };
}
