/**
 * CLI login through the SDK against a real server: a CLI app (no window, no
 * document: this runs in plain Node) calls promptCliLogin; a browser's app
 * confirms with its own session; the CLI receives that session. Also each
 * way it ends without one (expired, used, timed out, refused), and the
 * browser's calls for a CLI that came with an anonymous session.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { KnownErrors, Result, type StackClientApp } from "../../src/index.ts";
import { clientAppOf, type SdkProject, startServerWithProject } from "./fixtures.ts";
import { PASSWORD, uniqueEmail, type TestServer } from "./support.ts";

const APP_URL = "https://app.example.com";
const WAIT = 20;

let server: TestServer;
let baseUrl: string;
let project: SdkProject;

beforeAll(async () => ({ server, baseUrl, project } = await startServerWithProject()));
afterAll(() => server?.close());
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

const clientAuth = () => ({ type: "client" as const, projectId: project.id, publishableClientKey: project.publishableClientKey });

interface CliHooks {
  /** Awaited before each poll is sent. */
  beforePoll?: () => Promise<void>;
  /**
   * Called with each poll's answer; the CLI gets the answer once what it returns has settled, so a
   * confirmation started here has committed before the next poll, however slow the machine.
   */
  afterPoll?: (answer: { status: string }) => unknown;
  /**
   * Poll `n` (from 1) fails this way instead of reaching the server: no answer at all,
   * a 503 without an error code, or sent with a polling code nobody issued.
   */
  failPoll?: (n: number) => "network" | "503" | "unknown-code" | null;
}

/** A CLI's app: only the project id and publishable key, tokens in memory; records its polls and the polling code the server gives it. */
function cliApp(hooks: CliHooks = {}): { app: StackClientApp; pollingCode: () => string; polls: () => number } {
  let pollingCode: string | null = null;
  let polls = 0;
  const recording: typeof fetch = async (input, init) => {
    const path = new URL(String(input)).pathname;
    if (path === "/api/v1/auth/cli/poll") {
      await hooks.beforePoll?.();
      polls += 1;
      const failure = hooks.failPoll?.(polls) ?? null;
      if (failure === "network") throw new TypeError("fetch failed");
      if (failure === "503") return new Response("The server is restarting.", { status: 503, headers: { "content-type": "text/plain" } });
      if (failure === "unknown-code") return fetch(input, { ...init, body: JSON.stringify({ polling_code: "0".repeat(45) }) });
    }
    const response = await fetch(input, init);
    if (path === "/api/v1/auth/cli") pollingCode = ((await response.clone().json()) as { polling_code: string }).polling_code;
    if (path === "/api/v1/auth/cli/poll") await hooks.afterPoll?.((await response.clone().json()) as { status: string });
    return response;
  };
  return {
    app: clientAppOf(baseUrl, project, { fetch: recording }),
    pollingCode: () => {
      if (pollingCode === null) throw new Error("The CLI has not started a login yet.");
      return pollingCode;
    },
    polls: () => polls,
  };
}

async function signedInBrowser(): Promise<{ app: StackClientApp; refreshToken: string; userId: string }> {
  const app = clientAppOf(baseUrl, project);
  const result = await app.signUpWithCredential({ email: uniqueEmail("cli"), password: PASSWORD, noRedirect: true });
  if (result.status !== "ok") throw result.error;
  const user = await app.getUser({ or: "throw" });
  return { app, refreshToken: (await app.getRefreshToken())!, userId: user.id };
}

const loginCodeOf = (url: string) => new URL(url).searchParams.get("login_code")!;

describe("promptCliLogin", () => {
  it("runs without a window or document", () => {
    expect(typeof window).toBe("undefined");
    expect(typeof document).toBe("undefined");
  });

  it("shows the confirmation link, polls while the user confirms, and resolves with the browser session's refresh token", async () => {
    const browser = await signedInBrowser();
    let shown = "";
    // The user confirms once the CLI has polled and heard "waiting".
    let confirming: Promise<unknown> | null = null;
    const cli = cliApp({
      afterPoll: (answer) => {
        if (answer.status === "waiting" && confirming === null) {
          confirming = browser.app.confirmCliLogin(loginCodeOf(shown)).then(Result.orThrow);
        }
        return confirming;
      },
    });
    const result = await cli.app.promptCliLogin({
      appUrl: `${APP_URL}/`,
      waitTimeMillis: WAIT,
      promptLink: (url) => {
        shown = url;
      },
    });
    await confirming;
    expect(shown).toMatch(new RegExp(`^${APP_URL}/handler/cli-auth-confirm\\?login_code=[0-9a-hjkmnp-tv-z]{45}$`));
    expect(result).toEqual({ status: "ok", data: browser.refreshToken });
    expect(cli.polls()).toBeGreaterThanOrEqual(2);

    await cli.app.signInWithTokens({ accessToken: null, refreshToken: result.status === "ok" ? result.data : "" });
    expect((await cli.app.getUser({ or: "throw" })).id).toBe(browser.userId);
  });

  it("prints the link when no promptLink is given", async () => {
    const log = vi.spyOn(console, "log").mockImplementation(() => {});
    const cli = cliApp();
    const result = await cli.app.promptCliLogin({ appUrl: APP_URL, maxAttempts: 1 });
    expect(log).toHaveBeenCalledTimes(1);
    expect(log.mock.calls[0]![0]).toMatch(
      new RegExp(`^Please visit the following URL to authenticate:\\n${APP_URL}/handler/cli-auth-confirm\\?login_code=[0-9a-z]{45}$`),
    );
    expect(result.status).toBe("error");
  });

  it("gives up after maxAttempts polls: CLI_AUTH_ERROR 'Timed out waiting for CLI authentication.'", async () => {
    const cli = cliApp();
    const result = await cli.app.promptCliLogin({ appUrl: APP_URL, maxAttempts: 3, waitTimeMillis: WAIT, promptLink: () => {} });
    expect(result.status).toBe("error");
    const error = result.status === "error" ? result.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(error?.message).toBe("Timed out waiting for CLI authentication.");
    expect(cli.polls()).toBe(3);
  });

  it("ends with CLI_AUTH_EXPIRED_ERROR when the login expires unconfirmed", async () => {
    const cli = cliApp();
    const result = await cli.app.promptCliLogin({
      appUrl: APP_URL,
      expiresInMillis: 60_000,
      waitTimeMillis: WAIT,
      promptLink: () => {
        vi.useFakeTimers({ toFake: ["Date"] });
        vi.setSystemTime(Date.now() + 61_000);
      },
    });
    expect(result.status).toBe("error");
    const error = result.status === "error" ? result.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthExpiredError);
    expect(error?.message).toBe("CLI authentication request expired. Please try again.");
  });

  it("ends with CLI_AUTH_USED_ERROR when someone else polled the session first", async () => {
    const browser = await signedInBrowser();
    // The CLI's first poll waits until another caller has taken the session with its polling code.
    // A failure there rejects `takenFirst`: the CLI's polls then fail (as if unanswered) until maxAttempts,
    // and awaiting `takenFirst` fails the test with that failure's message.
    let takeFirst: (url: string) => void = () => {};
    const takenFirst = new Promise<string>((resolve) => (takeFirst = resolve)).then(async (url) => {
      Result.orThrow(await browser.app.confirmCliLogin(loginCodeOf(url)));
      const stolen = await server.request("/auth/cli/poll", {
        method: "POST",
        as: clientAuth(),
        body: { polling_code: cli.pollingCode() },
      });
      expect(stolen.status, stolen.text).toBe(201);
    });
    const cli = cliApp({ beforePoll: () => takenFirst });
    const result = await cli.app.promptCliLogin({
      appUrl: APP_URL,
      maxAttempts: 3,
      waitTimeMillis: WAIT,
      promptLink: (url) => takeFirst(url),
    });
    await takenFirst;
    expect(result.status).toBe("error");
    const error = result.status === "error" ? result.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthUsedError);
    expect(error?.message).toBe("This authentication token has already been used.");
  });

  it("polls again after a poll that got no answer or a 5xx, counting it as an attempt", async () => {
    const browser = await signedInBrowser();
    let shown = "";
    let confirming: Promise<unknown> | null = null;
    const answers: string[] = [];
    const cli = cliApp({
      failPoll: (n) => (n === 1 ? "network" : n === 2 ? "503" : null),
      afterPoll: (answer) => {
        answers.push(answer.status);
        if (confirming === null) confirming = browser.app.confirmCliLogin(loginCodeOf(shown)).then(Result.orThrow);
        return confirming;
      },
    });
    const result = await cli.app.promptCliLogin({
      appUrl: APP_URL,
      waitTimeMillis: WAIT,
      promptLink: (url) => {
        shown = url;
      },
    });
    await confirming;
    expect(result).toEqual({ status: "ok", data: browser.refreshToken });
    // Two failed polls, the one that heard "waiting" while the browser confirmed, and the one that got the session.
    expect(answers).toEqual(["waiting", "success"]);
    expect(cli.polls()).toBe(4);

    // Failed polls count toward maxAttempts.
    const failing = cliApp({ failPoll: (n) => (n % 2 === 1 ? "network" : "503") });
    const timedOut = await failing.app.promptCliLogin({ appUrl: APP_URL, maxAttempts: 3, waitTimeMillis: WAIT, promptLink: () => {} });
    expect(timedOut.status === "error" && timedOut.error.message).toBe("Timed out waiting for CLI authentication.");
    expect(failing.polls()).toBe(3);
  });

  it("ends at a poll the server refuses (a coded 4xx): CLI_AUTH_ERROR, no further polls", async () => {
    const cli = cliApp({ failPoll: (n) => (n === 1 ? "unknown-code" : null) });
    const result = await cli.app.promptCliLogin({ appUrl: APP_URL, waitTimeMillis: WAIT, promptLink: () => {} });
    const error = result.status === "error" ? result.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(error?.message).toMatch(/^Failed to initiate CLI auth: 400 /);
    expect(cli.polls()).toBe(1);
  });

  it("reports a refused start as CLI_AUTH_ERROR", async () => {
    const cli = cliApp();
    const promptLink = vi.fn();
    const result = await cli.app.promptCliLogin({ appUrl: APP_URL, expiresInMillis: 25 * 3600 * 1000, promptLink });
    expect(result.status).toBe("error");
    const error = result.status === "error" ? result.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(error?.message).toMatch(/^Failed to initiate CLI auth: 400 Request validation failed on POST \/api\/v1\/auth\/cli:/);
    expect(promptLink).not.toHaveBeenCalled();
  });
});

describe("the browser's side", () => {
  async function started(body: Record<string, unknown> = {}) {
    const res = await server.request("/auth/cli", { method: "POST", as: clientAuth(), body });
    expect(res.status, res.text).toBe(200);
    return res.body as { polling_code: string; login_code: string };
  }

  it("confirmCliLogin refuses a spent login code with the server's words, and needs a signed-in session", async () => {
    const browser = await signedInBrowser();
    const login = await started();
    expect(await browser.app.confirmCliLogin(login.login_code)).toEqual({ status: "ok", data: undefined });
    const again = await browser.app.confirmCliLogin(login.login_code);
    expect(again.status).toBe("error");
    const error = again.status === "error" ? again.error : null;
    expect(error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(error?.message).toMatch(/^This CLI login link is not valid/);

    const signedOut = clientAppOf(baseUrl, project);
    const refused = await signedOut.confirmCliLogin((await started()).login_code);
    expect(refused.status === "error" && refused.error).toBeInstanceOf(KnownErrors.CliAuthError);
  });

  it("confirmCliLogin refuses an anonymous session: RESTRICTED_USER_NOT_ALLOWED", async () => {
    const anon = clientAppOf(baseUrl, project);
    await anon.getUser({ or: "anonymous" });
    const result = await anon.confirmCliLogin((await started()).login_code);
    expect(result.status === "error" && result.error).toBeInstanceOf(KnownErrors.RestrictedUserNotAllowed);
  });

  it("checks for the CLI's anonymous session and takes it over once", async () => {
    const cliUser = clientAppOf(baseUrl, project);
    const anonymous = await cliUser.getUser({ or: "anonymous" });
    const login = await started({ anon_refresh_token: await cliUser.getRefreshToken() });
    const browser = clientAppOf(baseUrl, project);
    expect(await browser.getCliLoginSessionState(login.login_code)).toEqual({ status: "ok", data: "anonymous" });
    expect(await browser.getCliLoginSessionState((await started()).login_code)).toEqual({ status: "ok", data: "none" });

    const cliRefreshToken = (await cliUser.getRefreshToken())!;
    expect(await browser.claimCliAnonSession(login.login_code)).toEqual({ status: "ok", data: undefined });
    expect((await browser.getUser({ or: "anonymous" })).id).toBe(anonymous.id);
    // The CLI's own session, which both now share.
    expect(await browser.getRefreshToken()).toBe(cliRefreshToken);
    const refreshed = await server.request("/auth/sessions/current/refresh", {
      method: "POST",
      as: clientAuth(),
      headers: { "x-stack-refresh-token": cliRefreshToken },
    });
    expect(refreshed.status, refreshed.text).toBe(200);
    const again = await browser.claimCliAnonSession(login.login_code);
    expect(again.status === "error" && again.error).toBeInstanceOf(KnownErrors.CliAuthError);
    expect(await browser.getCliLoginSessionState(login.login_code)).toEqual({ status: "ok", data: "none" });
  });
});
