/**
 * A secret scanner reports a key it found in public (POST
 * /integrations/credential-scanning/revoke, no authentication: the key is its
 * own proof). A key of any project is found by the id its string carries and
 * the digest of the whole string; a secret key is revoked, and whoever it
 * belongs to is told by e-mail (the user, or the members of the team); a
 * public key (`pk_`) is meant to be seen and stays as it is.
 */
import { KnownErrors } from "@latchkey/shared";
import { and, eq } from "drizzle-orm";
import type { DbOrTx } from "../../../db/connect.ts";
import { contactChannels, teamMembers } from "../../../db/schema/index.ts";
import { inTenancy } from "../../../db/tenancy.ts";
import { enqueueEmail } from "../../../domain/emails/queue.ts";
import { sha256Hex } from "../../../lib/secrets.ts";
import type { Services } from "../../../services.ts";
import { userTeamApiKeys, type UserTeamApiKeyRow } from "../schema.ts";
import { sameDigest } from "./check.ts";
import { parseApiKeyString } from "./key-string.ts";
import { updateApiKey } from "./keys.ts";

export async function revokeLeakedApiKey(services: Services, value: string): Promise<void> {
  const parsed = parseApiKeyString(value);
  if (!parsed) throw new KnownErrors.ApiKeyNotFound();
  // tenancy: the scanner knows no project; the key string names its row, and its digest proves it
  const [row] = await services.db.select().from(userTeamApiKeys).where(eq(userTeamApiKeys.id, parsed.id));
  if (!row || !sameDigest(row.valueDigest, sha256Hex(value))) throw new KnownErrors.ApiKeyNotFound();
  if (row.isPublic) throw new KnownErrors.PublicApiKeyCannotBeRevoked();
  const project = await services.projects.get(row.projectId);
  const tenancy = { projectId: row.projectId, branchId: row.branchId };
  await updateApiKey(services.db, services, tenancy, row, { revoked: true }, async (tx, revoked) => {
    const message = leakedKeyEmail(project?.displayName ?? row.projectId, revoked);
    for (const to of await ownerAddresses(tx, revoked))
      await enqueueEmail(tx, row.projectId, { ...message, to: [to] }, services.clock.date());
  });
}

/** The primary e-mail addresses of the key's user, or of its team's members. */
async function ownerAddresses(db: DbOrTx, key: UserTeamApiKeyRow): Promise<string[]> {
  const tenancy = { projectId: key.projectId, branchId: key.branchId };
  const primary = and(inTenancy(contactChannels, tenancy), eq(contactChannels.type, "email"), eq(contactChannels.isPrimary, true));
  const rows =
    key.type === "user"
      ? await db
          .select({ email: contactChannels.value })
          .from(contactChannels)
          .where(and(primary, eq(contactChannels.userId, key.userId!)))
      : await db
          .select({ email: contactChannels.value })
          .from(teamMembers)
          .innerJoin(contactChannels, eq(contactChannels.userId, teamMembers.userId))
          .where(and(inTenancy(teamMembers, tenancy), eq(teamMembers.teamId, key.teamId!), primary));
  return [...new Set(rows.map((r) => r.email))];
}

function leakedKeyEmail(projectName: string, key: UserTeamApiKeyRow): { subject: string; text: string; html: string } {
  const owner = key.type === "user" ? "Your" : "Your team's";
  const text =
    `${owner} API key for ${projectName} ending in ${key.lastFour} ("${key.description}") was found in a public place ` +
    `and has been revoked, so nobody can use it any more. Create a new key and put it where the old one was used; ` +
    `keep it out of code and files others can read.`;
  return { subject: `${owner} ${projectName} API key was revoked`, text, html: `<p>${escapeHtml(text)}</p>` };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
