/**
 * The SDK's bot challenge option against a real server whose verification
 * service is a stand-in on loopback: the wire fields it sends, the known
 * errors a failed challenge surfaces as, and the score on the new user.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KnownErrors, StackClientApp, StackServerApp } from "../../src/index.ts";
import { CALLBACK_URL, createMailingTestServer, linkIn, type MailingServer } from "../../../server/test/mail-fixtures.ts";
import { startSiteverifyPeer, type SiteverifyPeer } from "../../../server/test/siteverify-peer.ts";
import { createSdkProject, type SdkProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail } from "./support.ts";

const SECRET = "sdk-turnstile-secret";

let peer: SiteverifyPeer;
let mailing: MailingServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => {
  peer = await startSiteverifyPeer();
  // `pass-<action>` tokens pass for that action on localhost; anything else fails.
  peer.reply = ({ response }) =>
    response?.startsWith("pass-")
      ? { json: { success: true, action: response.slice(5).split("/")[0], hostname: "localhost", "error-codes": [] } }
      : { json: { success: false, "error-codes": ["invalid-input-response"] } };
  mailing = await createMailingTestServer({ botChallenge: { url: peer.url, secretKey: SECRET, timeoutMillis: 2000 } });
  baseUrl = await mailing.server.listen();
  project = await createSdkProject(baseUrl, { magicLinkEnabled: true });
});
afterAll(async () => {
  await mailing?.close();
  await peer?.close();
});

const clientApp = () =>
  new StackClientApp({ baseUrl, projectId: project.id, publishableClientKey: project.publishableClientKey, tokenStore: "memory" });
const serverApp = () => new StackServerApp({ baseUrl, projectId: project.id, secretServerKey: project.secretServerKey });

async function botScore(userId: string): Promise<number> {
  const user = await serverApp().getUser(userId);
  return user!.riskScores.signUp.bot;
}

describe("signUpWithCredential", () => {
  it("sends the token and phase; a passed challenge signs up with score 0", async () => {
    const app = clientApp();
    const token = `pass-sign_up_with_credential/${uniqueEmail()}`;
    const result = await app.signUpWithCredential({
      email: uniqueEmail("bot"),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
      botChallenge: { token, phase: "invisible" },
    });
    expect(result.status).toBe("ok");
    expect(peer.received.find((r) => r.response === token)?.secret).toBe(SECRET);
    expect(await botScore((await app.getUser({ or: "throw" })).id)).toBe(0);
  });

  it("answers a failed invisible challenge with BOT_CHALLENGE_REQUIRED, a failed visible one with BOT_CHALLENGE_FAILED", async () => {
    const signUp = (phase: "invisible" | "visible") =>
      clientApp().signUpWithCredential({
        email: uniqueEmail("bot"),
        password: PASSWORD,
        noRedirect: true,
        noVerificationCallback: true,
        botChallenge: { token: "nope", phase },
      });
    const required = await signUp("invisible");
    expect(required.status === "error" && required.error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
    const failed = await signUp("visible");
    expect(failed.status === "error" && failed.error).toBeInstanceOf(KnownErrors.BotChallengeFailed);
    expect(failed.status === "error" && failed.error.details).toEqual({ message: expect.any(String) });
  });

  it('sends unavailable as the wire\'s "true" and scores the middle', async () => {
    const app = clientApp();
    const before = peer.received.length;
    const result = await app.signUpWithCredential({
      email: uniqueEmail("bot"),
      password: PASSWORD,
      noRedirect: true,
      noVerificationCallback: true,
      botChallenge: { unavailable: true },
    });
    expect(result.status).toBe("ok");
    expect(peer.received.length).toBe(before);
    expect(await botScore((await app.getUser({ or: "throw" })).id)).toBe(50);
  });
});

describe("sendMagicLinkEmail", () => {
  it("keeps the challenge's outcome for the user the code creates", async () => {
    const app = clientApp();
    const email = uniqueEmail("code");
    const sent = await app.sendMagicLinkEmail(email, {
      callbackUrl: CALLBACK_URL,
      botChallenge: { token: `pass-send_magic_link_email/${email}`, phase: "visible" },
    });
    expect(sent.status).toBe("ok");
    const { code } = linkIn(await mailing.mailTo(email));
    expect((await app.signInWithMagicLink(code, { noRedirect: true })).status).toBe("ok");
    // Passing the visible step means the invisible one had failed.
    expect(await botScore((await app.getUser({ or: "throw" })).id)).toBe(100);
  });

  it("surfaces BOT_CHALLENGE_REQUIRED for a new address", async () => {
    const sent = await clientApp().sendMagicLinkEmail(uniqueEmail("code"), {
      callbackUrl: CALLBACK_URL,
      botChallenge: { token: "pass-sign_up_with_credential", phase: "invisible" },
    });
    expect(sent.status === "error" && sent.error).toBeInstanceOf(KnownErrors.BotChallengeRequired);
  });
});
