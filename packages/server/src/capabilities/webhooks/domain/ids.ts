/**
 * Ids as Svix gives them, so tools that parse them (the `svix` client, receivers logging `webhook-id`) see what
 * they expect: a prefix (`msg_`, `ep_`, `atmpt_`) and 27 base-62 characters holding the second of creation and
 * 128 random bits (the KSUID layout), so ids sort by time.
 */
import { randomBytes } from "node:crypto";

const ALPHABET = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
/** KSUID's epoch: its timestamps count seconds from here. */
const EPOCH_SECONDS = 1_400_000_000;
const LENGTH = 27;

export type WebhookIdPrefix = "msg" | "ep" | "atmpt";

export function webhookId(prefix: WebhookIdPrefix, nowMillis: number): string {
  const bytes = Buffer.alloc(20);
  bytes.writeUInt32BE(Math.max(0, Math.floor(nowMillis / 1000) - EPOCH_SECONDS), 0);
  randomBytes(16).copy(bytes, 4);
  let n = BigInt(`0x${bytes.toString("hex")}`);
  let text = "";
  while (n > 0n) {
    text = ALPHABET[Number(n % 62n)]! + text;
    n /= 62n;
  }
  return `${prefix}_${text.padStart(LENGTH, "0")}`;
}

/** Whether `value` has the shape of an id with `prefix` (checked before a lookup). */
export function isWebhookId(prefix: WebhookIdPrefix, value: string): boolean {
  return (
    value.length === prefix.length + 1 + LENGTH && value.startsWith(`${prefix}_`) && /^[0-9A-Za-z]+$/.test(value.slice(prefix.length + 1))
  );
}
