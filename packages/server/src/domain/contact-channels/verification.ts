/**
 * Verifying a contact channel: a code mailed to the address, whose data
 * names the channel and the address it was sent to. Using the code marks
 * that channel verified, provided it still holds that address (a code sent
 * before the address changed proves nothing about the new one).
 */
import type { DbOrTx } from "../../db/connect.ts";
import { mailCode } from "../codes/mail-code.ts";
import type { ProjectRow } from "../projects/projects.ts";

export interface ChannelVerificationData {
  user_id: string;
  contact_channel_id: string;
  email: string;
}

export async function mailChannelVerification(
  tx: DbOrTx,
  project: ProjectRow,
  branchId: string,
  channel: { id: string; userId: string; value: string },
  callbackUrl: string,
): Promise<void> {
  const data: ChannelVerificationData = { user_id: channel.userId, contact_channel_id: channel.id, email: channel.value };
  await mailCode(tx, {
    project,
    branchId,
    purpose: "contact_channel_verification",
    to: channel.value,
    callbackUrl,
    data: { ...data },
  });
}
