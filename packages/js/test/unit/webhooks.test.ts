/**
 * verifyWebhook against deliveries signed two ways: by the `standardwebhooks`
 * package (as Svix's tools sign) and by a plain HMAC-SHA256 of
 * `<id>.<timestamp>.<body>` (as WIRE-next §4 states the signature), so the
 * helper agrees with the published scheme, not only with the package it uses.
 * The clock is pinned: the tolerance is checked at its edges.
 */
import { createHmac, randomBytes } from "node:crypto";
import type { IncomingHttpHeaders } from "node:http";
import type { ServerTeamJson, ServerUserJson } from "@latchkey/shared/api/index";
import { Webhook } from "standardwebhooks";
import { afterEach, beforeEach, describe, expect, expectTypeOf, it, vi } from "vitest";
import { verifyWebhook, WebhookVerificationError, type WebhookEvent } from "../../src/index.ts";

const NOW = new Date("2030-05-01T12:00:00Z");
const key = randomBytes(24);
const secret = `whsec_${key.toString("base64")}`;
const otherSecret = `whsec_${randomBytes(24).toString("base64")}`;
const id = "msg_2kLdQ0d8QmTnVzPq4r1sXy9aBcE";
const event = { type: "team_membership.created", data: { team_id: "t-1", user_id: "u-1" } };
const body = JSON.stringify(event);

beforeEach(() => {
  vi.useFakeTimers({ toFake: ["Date"] });
  vi.setSystemTime(NOW);
});
afterEach(() => vi.useRealTimers());

const seconds = (date: Date) => String(Math.floor(date.getTime() / 1000));
const secondsFromNow = (offset: number) => new Date(NOW.getTime() + offset * 1000);

/** The three headers, signed by the `standardwebhooks` package. */
function signedByPackage(payload: string, at = NOW, withSecret = secret, prefix = "webhook"): Record<string, string> {
  return {
    [`${prefix}-id`]: id,
    [`${prefix}-timestamp`]: seconds(at),
    [`${prefix}-signature`]: new Webhook(withSecret).sign(id, at, payload),
  };
}

/** The three headers, signed by hand: base64 HMAC-SHA256 keyed by the secret's bytes over the id, timestamp and body bytes. */
function signedByHand(payload: string | Buffer, at = NOW): Record<string, string> {
  const hmac = createHmac("sha256", key)
    .update(`${id}.${seconds(at)}.`)
    .update(payload)
    .digest("base64");
  return { "webhook-id": id, "webhook-timestamp": seconds(at), "webhook-signature": `v1,${hmac}` };
}

function rejection(run: () => unknown): WebhookVerificationError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(WebhookVerificationError);
    return error as WebhookVerificationError;
  }
  throw new Error("verifyWebhook accepted the delivery");
}

describe("verifyWebhook", () => {
  it("returns the event of a delivery the standardwebhooks package signed", () => {
    expect(verifyWebhook(body, signedByPackage(body), secret)).toEqual(event);
  });

  it("returns the event of a delivery signed by a plain HMAC, and both signatures are the same", () => {
    expect(verifyWebhook(body, signedByHand(body), secret)).toEqual(event);
    expect(signedByHand(body)["webhook-signature"]).toBe(signedByPackage(body)["webhook-signature"]);
  });

  it("accepts the svix-* header names, and header names in any case", () => {
    expect(verifyWebhook(body, signedByPackage(body, NOW, secret, "svix"), secret)).toEqual(event);
    const upper = Object.fromEntries(Object.entries(signedByPackage(body)).map(([name, value]) => [name.toUpperCase(), value]));
    expect(verifyWebhook(body, upper, secret)).toEqual(event);
  });

  it("reads a fetch Headers object and Node's IncomingHttpHeaders", () => {
    expect(verifyWebhook(body, new Headers(signedByPackage(body, NOW, secret, "svix")), secret)).toEqual(event);
    const signed = signedByPackage(body);
    const node: IncomingHttpHeaders = { ...signed, "webhook-signature": ["v1,bm90IHRoaXMgb25l", signed["webhook-signature"]!] };
    expect(verifyWebhook(body, node, secret)).toEqual(event);
  });

  it("takes the body as a string, a Buffer or a Uint8Array of the same bytes", () => {
    const accented = JSON.stringify({ type: "user.deleted", data: { id: "u-ë", teams: [{ id: "t-☃" }] } });
    const headers = signedByHand(Buffer.from(accented, "utf8"));
    const bytes = new TextEncoder().encode(accented);
    for (const payload of [accented, Buffer.from(accented, "utf8"), bytes]) {
      expect(verifyWebhook(payload, headers, secret)).toEqual(JSON.parse(accented));
    }
  });

  it("accepts any one matching signature of several (a secret being rotated)", () => {
    const signed = signedByPackage(body);
    const both = `${signedByPackage(body, NOW, otherSecret)["webhook-signature"]} ${signed["webhook-signature"]}`;
    expect(verifyWebhook(body, { ...signed, "webhook-signature": both }, secret)).toEqual(event);
  });

  it("rejects a delivery signed with another secret", () => {
    const error = rejection(() => verifyWebhook(body, signedByPackage(body, NOW, otherSecret), secret));
    expect(error.message).toBe("Webhook not verified: no matching signature found.");
  });

  it("rejects a body changed after signing, even only re-serialised", () => {
    const tampered = body.replace("u-1", "u-2");
    rejection(() => verifyWebhook(tampered, signedByPackage(body), secret));
    rejection(() => verifyWebhook(JSON.stringify(event, null, 2), signedByPackage(body), secret));
  });

  it("rejects a changed id or timestamp, which the signature covers", () => {
    rejection(() => verifyWebhook(body, { ...signedByPackage(body), "webhook-id": "msg_other" }, secret));
    rejection(() => verifyWebhook(body, { ...signedByPackage(body), "webhook-timestamp": seconds(secondsFromNow(-1)) }, secret));
  });

  it("accepts timestamps up to 5 minutes off this clock, and rejects older or newer ones", () => {
    for (const offset of [-300, 300]) {
      expect(verifyWebhook(body, signedByPackage(body, secondsFromNow(offset)), secret)).toEqual(event);
    }
    expect(rejection(() => verifyWebhook(body, signedByPackage(body, secondsFromNow(-301)), secret)).message).toBe(
      "Webhook not verified: message timestamp too old.",
    );
    expect(rejection(() => verifyWebhook(body, signedByPackage(body, secondsFromNow(301)), secret)).message).toBe(
      "Webhook not verified: message timestamp too new.",
    );
    rejection(() => verifyWebhook(body, { ...signedByPackage(body), "webhook-timestamp": "yesterday" }, secret));
  });

  it("names a missing header", () => {
    for (const name of ["id", "timestamp", "signature"]) {
      const headers = signedByPackage(body);
      delete headers[`webhook-${name}`];
      expect(rejection(() => verifyWebhook(body, headers, secret)).message).toBe(
        `Webhook not verified: the webhook-${name} header (or svix-${name}) is missing.`,
      );
    }
    rejection(() => verifyWebhook(body, { ...signedByPackage(body), "webhook-signature": "" }, secret));
    rejection(() => verifyWebhook(body, new Headers(), secret));
  });

  it("rejects a repeated id or timestamp header", () => {
    const signed = signedByPackage(body);
    const error = rejection(() => verifyWebhook(body, { ...signed, "webhook-id": [id, "msg_other"] }, secret));
    expect(error.message).toBe("Webhook not verified: the webhook-id header is repeated.");
  });

  it("rejects a signed body that is not an event", () => {
    for (const payload of ["not json", "[1]", JSON.stringify({ data: {} }), JSON.stringify({ type: "user.created" })]) {
      rejection(() => verifyWebhook(payload, signedByPackage(payload), secret));
    }
  });

  it("throws a TypeError for a secret that is not a signing secret", () => {
    expect(() => verifyWebhook(body, signedByPackage(body), "whsec_")).toThrow(TypeError);
    expect(() => verifyWebhook(body, signedByPackage(body), "whsec_not base64!")).toThrow(TypeError);
  });

  it("types the event's data by its type", () => {
    const user = verifyWebhook(body, signedByPackage(body), secret);
    expectTypeOf(user).toEqualTypeOf<WebhookEvent>();
    const check = (delivered: WebhookEvent) => {
      switch (delivered.type) {
        case "user.created":
          expectTypeOf(delivered.data).toEqualTypeOf<ServerUserJson>();
          break;
        case "team.updated":
          expectTypeOf(delivered.data).toEqualTypeOf<ServerTeamJson>();
          break;
        case "team_permission.deleted":
          expectTypeOf(delivered.data).toEqualTypeOf<{ id: string; team_id: string; user_id: string }>();
          break;
        case "api_key.created":
          expectTypeOf(delivered.data).toEqualTypeOf<{ id: string; user_id: string } | { id: string; team_id: string }>();
          break;
        case "stack.test":
          expectTypeOf(delivered.data).toEqualTypeOf<{ message: string; endpointUrl: string }>();
          break;
      }
    };
    check(user);
  });
});
