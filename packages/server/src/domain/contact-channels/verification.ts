/**
 * Verifying a contact channel: a code mailed to the address, whose data
 * names the channel and the address it was sent to. Using the code marks
 * that channel verified, provided it still holds that address (a code sent
 * before the address changed proves nothing about the new one).
 */
import { StatusError } from "@latchkey/shared";
import type { Logger } from "pino";
import type { DbOrTx } from "../../db/connect.ts";
import type { EventTx } from "../../events/transaction.ts";
import { prepareCodeMail, saveCodeMail, type PreparedCodeMail } from "../codes/mail-code.ts";
import type { Services } from "../../services.ts";
import type { ProjectRow } from "../projects/project-row.ts";

export interface ChannelVerificationData {
  user_id: string;
  contact_channel_id: string;
  email: string;
}

/** Renders the verification mail for `address`, outside any transaction. */
export function prepareChannelVerification(
  db: DbOrTx,
  logger: Logger,
  project: ProjectRow,
  branchId: string,
  address: string,
  callbackUrl: string,
): Promise<PreparedCodeMail> {
  return prepareCodeMail(db, logger, { project, branchId, purpose: "contact_channel_verification", to: address, callbackUrl });
}

/** Stores the code for this channel and queues the mail, in the caller's transaction. */
export async function saveChannelVerification(
  tx: EventTx,
  prepared: PreparedCodeMail,
  channel: { id: string; userId: string; value: string },
  now: Date,
): Promise<void> {
  // The mail was rendered for the address as it was read; a change since would verify one address by mailing another.
  if (channel.value.toLowerCase() !== prepared.to.toLowerCase()) {
    throw new StatusError(409, "The contact channel's address changed while the verification e-mail was being prepared. Try again.");
  }
  const data: ChannelVerificationData = { user_id: channel.userId, contact_channel_id: channel.id, email: channel.value };
  await saveCodeMail(tx, prepared, { ...data }, now);
}

/**
 * Mails a verification link for an existing channel: counted against the
 * address's and the caller's limits, rendered outside any transaction,
 * stored and queued in one.
 */
export async function sendChannelVerification(
  services: Services,
  project: ProjectRow,
  branchId: string,
  channel: { id: string; userId: string; value: string },
  callbackUrl: string,
  ip: string | null,
): Promise<void> {
  services.emailRateLimit.takeCodeEmail(project.id, channel.value, ip);
  const prepared = await prepareChannelVerification(services.db, services.logger, project, branchId, channel.value, callbackUrl);
  await services.events.transaction(services.db, (tx) => saveChannelVerification(tx, prepared, channel, services.clock.date()));
}
