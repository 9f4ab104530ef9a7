/**
 * Server-rendered markup of the OAuth components: each provider's button
 * names it in words beside a decorative mark (Simple Icons, or the initial
 * for the two it lacks), the handler routes the callback page, and the
 * connected-accounts section lists accounts per provider with their
 * controls. The flows themselves, in a real browser: test/browser/oauth.test.ts.
 */
import { OAUTH_PROVIDER_IDS, StackClientApp, type CacheEntry, type CurrentUser, type Project } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { siGithub } from "simple-icons";
import { describe, expect, it } from "vitest";
import {
  ConnectedAccountsSection,
  OAuthButton,
  OAUTH_PROVIDER_NAMES,
  StackHandler,
  StackProvider,
  useConnectedAccount,
} from "../../src/index.ts";

const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
const render = (node: React.ReactNode, target = app) => renderToString(<StackProvider app={target}>{node}</StackProvider>);

/** An entry that already holds `value`, its arrival marked settled the way React marks the promises it has seen. */
function held<T>(value: T): CacheEntry<T> {
  const snapshot = { status: "ok", value } as const;
  const arrival = Object.assign(Promise.resolve(), { status: "fulfilled", value: undefined });
  return { subscribe: () => () => {}, getSnapshot: () => snapshot, arrival } as unknown as CacheEntry<T>;
}

describe("OAuthButton", () => {
  it.each(OAUTH_PROVIDER_IDS)("%s: names the provider in words for sign-in and sign-up, beside a mark hidden from screen readers", (id) => {
    const name = OAUTH_PROVIDER_NAMES[id];
    const signIn = render(<OAuthButton provider={id} type="sign-in" />);
    expect(signIn).toMatch(
      new RegExp(`<button class="lk-button lk-button-secondary lk-oauth-button" type="button">.*Sign in with ${name}</span></button>`),
    );
    expect(signIn).toMatch(/<svg class="lk-provider-mark"[^>]* aria-hidden="true" focusable="false"/);
    expect(render(<OAuthButton provider={id} type="sign-up" />)).toContain(`Sign up with ${name}`);
  });

  it("draws Simple Icons' mark where it has one, and the initial in a circle for Microsoft and LinkedIn", () => {
    expect(render(<OAuthButton provider="github" type="sign-in" />)).toContain(`d="${siGithub.path}"`);
    for (const [id, initial] of [
      ["microsoft", "M"],
      ["linkedin", "L"],
    ] as const) {
      const html = render(<OAuthButton provider={id} type="sign-in" />);
      expect(html).toContain("<circle");
      expect(html).toMatch(new RegExp(`<text[^>]*>${initial}</text>`));
      expect(html).not.toContain("<path");
    }
  });
});

describe("the oauth-callback page", () => {
  it("is routed by the handler, and says it is signing the user in (announced) until the flow ends", () => {
    const html = render(<StackHandler pathname="/handler/oauth-callback" />);
    expect(html).toMatch(/<h1 class="lk-title">Signing you in<\/h1>/);
    expect(html).toMatch(/<p class="lk-muted" role="status">Signing you in…<\/p>/);
  });
});

describe("the connected accounts section", () => {
  const account = (type: string, email: string, allowSignIn: boolean) => ({
    id: `${type}-${email}`,
    type,
    providerConfigId: type,
    userId: "u1",
    email,
    allowSignIn,
    allowConnectedAccounts: true,
  });

  function renderSection(enabled: string[], accounts: ReturnType<typeof account>[]): string {
    const target = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
    const project = { id: "p", displayName: "Test", config: { oauthProviders: enabled.map((id) => ({ id })) } } as unknown as Project;
    Object.assign(target, { _projectEntry: () => held(project) });
    const user = {
      id: "u1",
      oauthProviders: accounts.map((a) => ({ id: a.type })),
      _oauthProvidersEntry: () => held(accounts),
    } as unknown as CurrentUser;
    return render(<ConnectedAccountsSection user={user} />, target);
  }

  it("lists each enabled provider in its own labelled region: its accounts with their controls, and Connect", () => {
    const html = renderSection(["github", "google"], [account("github", "ada@example.com", true)]);
    expect(html).toContain('aria-labelledby="lk-connected-github"');
    expect(html).toMatch(/<h3 id="lk-connected-github"[^>]*>.*GitHub<\/h3>/);
    expect(html).toContain('aria-label="Your GitHub accounts"');
    expect(html).toMatch(/ada@example\.com<span class="lk-badge">Sign-in<\/span>/);
    expect(html).toMatch(/<input type="checkbox" checked=""\/>Use for sign-in/);
    expect(html).toContain('aria-label="Disconnect ada@example.com"');
    expect(html).toContain('aria-label="Connect another GitHub account"');
    // Google: nothing connected yet.
    expect(html).toMatch(/<h3 id="lk-connected-google"[^>]*>.*Google<\/h3><p class="lk-muted">Not connected\.<\/p>/);
    expect(html).toContain('aria-label="Connect Google account"');
    expect(html).toContain('<div role="status"></div>');
  });

  it("still lists an account at a provider the project turned off, to disconnect it, but offers no Connect there", () => {
    const html = renderSection(["github"], [account("discord", "ada@example.com", false)]);
    expect(html).toContain('aria-label="Your Discord accounts"');
    expect(html).toContain('aria-label="Disconnect ada@example.com"');
    expect(html).not.toContain("Connect Discord account");
    expect(html).not.toMatch(/<input type="checkbox" checked=""/);
    expect(html).toContain('aria-label="Connect GitHub account"');
  });
});

describe("useConnectedAccount", () => {
  function Shows({ user, or }: { user: CurrentUser; or?: "return-null" }) {
    const connection = useConnectedAccount(user, "github", { scopes: ["repo"], or });
    return <p>{connection ? `connected to ${connection.id}` : "no connection"}</p>;
  }
  const userWith = (token: { accessToken: string } | null, asked: string[][]) =>
    ({
      _connectedAccessTokenEntry: (provider: string, scopes: string[]) => {
        asked.push([provider, ...scopes]);
        return held(token);
      },
      _oauthConnection: (provider: string) => ({ id: provider, getAccessToken: async () => token! }),
    }) as unknown as CurrentUser;

  it("gives the connection when the SDK's cache holds a token with the scopes, and null when it holds none", () => {
    const asked: string[][] = [];
    expect(render(<Shows user={userWith({ accessToken: "t" }, asked)} />)).toContain("connected to github");
    expect(render(<Shows user={userWith(null, asked)} />)).toContain("no connection");
    expect(render(<Shows user={userWith(null, asked)} or="return-null" />)).toContain("no connection");
    expect(asked).toEqual([
      ["github", "repo"],
      ["github", "repo"],
      ["github", "repo"],
    ]);
  });
});
