/** Passkey ceremonies in tests, answered by the software authenticator (passkey-authenticator.ts). */
import { expect } from "vitest";
import type { EndUser, Project } from "./fixtures.ts";
import type { Auth, TestResponse, TestServer } from "./harness.ts";
import {
  SoftwareAuthenticator,
  type AuthenticationOptions,
  type CeremonyTweaks,
  type RegistrationOptions,
} from "./passkey-authenticator.ts";

/** A page of the app while developing (projects allow localhost by default). */
export const LOCAL_ORIGIN = "http://localhost:3000";

export { SoftwareAuthenticator };

export async function initiateRegistration(server: TestServer, as: Auth): Promise<{ options: RegistrationOptions; code: string }> {
  const res = await server.request("/auth/passkey/initiate-passkey-registration", { method: "POST", as, body: {} });
  expect(res.status, res.text).toBe(200);
  return { options: res.body.options_json, code: res.body.code };
}

export async function initiateAuthentication(server: TestServer, as: Auth): Promise<{ options: AuthenticationOptions; code: string }> {
  const res = await server.request("/auth/passkey/initiate-passkey-authentication", { method: "POST", as, body: {} });
  expect(res.status, res.text).toBe(200);
  return { options: res.body.options_json, code: res.body.code };
}

export function submitRegistration(server: TestServer, as: Auth, credential: unknown, code: string): Promise<TestResponse> {
  return server.request("/auth/passkey/register", { method: "POST", as, body: { credential, code } });
}

export function submitSignIn(server: TestServer, as: Auth, answer: unknown, code: string): Promise<TestResponse> {
  return server.request("/auth/passkey/sign-in", { method: "POST", as, body: { authentication_response: answer, code } });
}

/** A whole registration for `user` on a page at `origin`; returns the new credential's id. */
export async function registerPasskey(
  server: TestServer,
  user: Pick<EndUser, "as">,
  authenticator: SoftwareAuthenticator,
  origin = LOCAL_ORIGIN,
  tweaks: CeremonyTweaks = {},
): Promise<string> {
  const { options, code } = await initiateRegistration(server, user.as);
  const credential = authenticator.register(options, origin, tweaks);
  const res = await submitRegistration(server, user.as, credential, code);
  expect(res.status, res.text).toBe(200);
  expect(res.body).toEqual({ user_handle: credential.id });
  return credential.id;
}

/** A whole passkey sign-in on a page at `origin`, with the authenticator's last credential unless given. */
export async function signInWithPasskey(
  server: TestServer,
  project: Pick<Project, "client">,
  authenticator: SoftwareAuthenticator,
  origin = LOCAL_ORIGIN,
  tweaks: CeremonyTweaks = {},
  credential = authenticator.credentials.at(-1),
): Promise<TestResponse> {
  const { options, code } = await initiateAuthentication(server, project.client);
  return submitSignIn(server, project.client, authenticator.authenticate(options, origin, tweaks, credential), code);
}

export async function listPasskeys(server: TestServer, as: Auth, userId = "me"): Promise<any[]> {
  const res = await server.request("/passkeys", { as, query: { user_id: userId } });
  expect(res.status, res.text).toBe(200);
  expect(res.body.is_paginated).toBe(false);
  return res.body.items;
}
