/**
 * An OAuth sign-up scores its bot challenge like the other sign-ups
 * (risk_scores.sign_up.bot): the authorize step checks it, the flow keeps the
 * outcome, and the user the callback creates gets the score.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jwtPayload, uniqueEmail, type Project } from "./fixtures.ts";
import { createOAuthProject, signInWithProvider, startOAuthTestbed, type OAuthTestbed } from "./oauth-fixtures.ts";
import { startSiteverifyPeer, type SiteverifyPeer } from "./siteverify-peer.ts";

let peer: SiteverifyPeer;
let testbed: OAuthTestbed;
let project: Project;

beforeAll(async () => {
  peer = await startSiteverifyPeer();
  peer.reply = (request) => {
    const [kind, action] = (request.response ?? "").split(":");
    if (kind === "down") return { status: 503, json: {} };
    if (kind === "nohost") return { json: { success: true, action, "error-codes": [] } };
    return { json: kind === "pass" ? { success: true, action, hostname: "localhost", "error-codes": [] } : { success: false } };
  };
  testbed = await startOAuthTestbed({ botChallenge: { url: peer.url, secretKey: "s", timeoutMillis: 2000 } });
  project = await createOAuthProject(testbed.server);
});
afterAll(async () => {
  await testbed?.close();
  await peer?.close();
});

async function signUpScore(query: Record<string, string>, email = uniqueEmail("bot")): Promise<number> {
  const res = await signInWithProvider(testbed, project, email, { query });
  expect(res.status, res.text).toBe(200);
  expect(res.body.is_new_user).toBe(true);
  return botScore(userOf(res.body));
}

function userOf(tokens: { access_token: string }): string {
  return jwtPayload(tokens.access_token).sub as string;
}

async function botScore(userId: string): Promise<number> {
  const user = await testbed.server.request(`/users/${userId}`, { as: project.server });
  expect(user.status, user.text).toBe(200);
  return user.body.risk_scores.sign_up.bot;
}

describe("risk_scores.sign_up.bot of an OAuth sign-up", () => {
  it("is 0 after a passed challenge", async () => {
    expect(await signUpScore({ bot_challenge_token: "pass:oauth_authenticate" })).toBe(0);
  });

  it("is 0 after a passed challenge whose answer names no hostname, 100 when its action is another step's", async () => {
    expect(await signUpScore({ bot_challenge_token: "nohost:oauth_authenticate" })).toBe(0);
    expect(await signUpScore({ bot_challenge_token: "nohost:sign_up_with_credential" })).toBe(100);
  });

  it("is 100 without a challenge answer (an older client), the middle when it could not be verified", async () => {
    expect(await signUpScore({})).toBe(100);
    expect(await signUpScore({ bot_challenge_unavailable: "true" })).toBe(50);
  });

  it("is left as it was when the user signs in again", async () => {
    const email = uniqueEmail("again");
    const first = await signInWithProvider(testbed, project, email, { query: {} });
    expect(await botScore(userOf(first.body))).toBe(100);
    const again = await signInWithProvider(testbed, project, email, { query: { bot_challenge_token: "pass:oauth_authenticate" } });
    expect(again.body.is_new_user).toBe(false);
    expect(userOf(again.body)).toBe(userOf(first.body));
    expect(await botScore(userOf(first.body))).toBe(100);
  });
});
