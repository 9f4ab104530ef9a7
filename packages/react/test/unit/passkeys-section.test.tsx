/**
 * Server-rendered markup of the passkeys section in account settings: when
 * "Add a passkey" is offered, and when the last passkey may be removed (only
 * the ways in the project accepts count as another way in). Focus and the
 * live status line in a real browser: test/browser/passkeys.test.ts.
 */
import { StackClientApp, type CacheEntry, type CurrentUser, type Project } from "@latchkey/js";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { PasskeysSection } from "../../src/components/passkeys-section.tsx";
import { StackProvider } from "../../src/index.ts";

/**
 * An entry that already holds `value` (what the hooks read while rendering). Its arrival is
 * marked settled the way React marks the promises it has seen, so use() does not suspend on it.
 */
function held<T>(value: T): CacheEntry<T> {
  const snapshot = { status: "ok", value } as const;
  const arrival = Object.assign(Promise.resolve(), { status: "fulfilled", value: undefined });
  return { subscribe: () => () => {}, getSnapshot: () => snapshot, arrival } as unknown as CacheEntry<T>;
}

type Config = Pick<Project["config"], "passkeyEnabled" | "credentialEnabled" | "magicLinkEnabled">;
type Ways = Pick<CurrentUser, "hasPassword" | "otpAuthEnabled"> & { oauth?: boolean };

const ALL_ON: Config = { passkeyEnabled: true, credentialEnabled: true, magicLinkEnabled: true };
const PASSKEY = { id: "k1", displayName: "Laptop", backedUp: false, createdAt: new Date(0), lastUsedAt: null };

function render(config: Config, ways: Ways, passkeyCount = 1): string {
  const app = new StackClientApp({ projectId: "p", tokenStore: "memory", baseUrl: "http://127.0.0.1:9" });
  const project = { id: "p", displayName: "Test", config: { ...config, oauthProviders: [] } } as unknown as Project;
  Object.assign(app, { _projectEntry: () => held(project) });
  const user = {
    id: "u1",
    hasPassword: ways.hasPassword,
    otpAuthEnabled: ways.otpAuthEnabled,
    oauthProviders: ways.oauth ? [{ id: "github" }] : [],
    _passkeysEntry: () => held(Array.from({ length: passkeyCount }, (_, i) => ({ ...PASSKEY, id: `k${i}`, displayName: `Key ${i}` }))),
  } as unknown as CurrentUser;
  return renderToString(
    <StackProvider app={app}>
      <PasskeysSection user={user} />
    </StackProvider>,
  );
}

const ONLY_WAY_IN = "This passkey is your only way to sign in.";
const removable = (html: string) => html.includes('aria-label="Remove Key 0"');

describe("the passkeys section", () => {
  it("offers Add a passkey while the project has passkeys on, and an empty status line for announcements", () => {
    const html = render(ALL_ON, { hasPassword: true, otpAuthEnabled: false });
    expect(html).toMatch(/<button[^>]*>Add a passkey<\/button>/);
    expect(html).toContain('<div role="status"></div>');
    expect(html).toContain('aria-label="Your passkeys"');
    expect(removable(html)).toBe(true);
  });

  it("with passkeys off, only lists, renames and removes: no Add a passkey, and even a lone passkey can go", () => {
    const html = render({ ...ALL_ON, passkeyEnabled: false }, { hasPassword: false, otpAuthEnabled: false });
    expect(html).not.toContain("Add a passkey");
    expect(html).toContain('aria-label="Rename Key 0"');
    expect(removable(html)).toBe(true);
    expect(html).not.toContain(ONLY_WAY_IN);
  });

  it("keeps the last passkey when the user's password and e-mail codes are ways the project does not accept", () => {
    const html = render({ ...ALL_ON, credentialEnabled: false, magicLinkEnabled: false }, { hasPassword: true, otpAuthEnabled: true });
    expect(removable(html)).toBe(false);
    expect(html).toContain(ONLY_WAY_IN);
  });

  it("lets the last passkey go when a way the project accepts is left", () => {
    const cases: [Config, Ways][] = [
      [
        { ...ALL_ON, magicLinkEnabled: false },
        { hasPassword: true, otpAuthEnabled: true },
      ],
      [
        { ...ALL_ON, credentialEnabled: false },
        { hasPassword: true, otpAuthEnabled: true },
      ],
      [
        { ...ALL_ON, credentialEnabled: false, magicLinkEnabled: false },
        { hasPassword: true, otpAuthEnabled: true, oauth: true },
      ],
    ];
    for (const [config, ways] of cases) {
      const html = render(config, ways);
      expect(removable(html), JSON.stringify({ config, ways })).toBe(true);
      expect(html).not.toContain(ONLY_WAY_IN);
    }
  });

  it("lets one of two passkeys go even without another way in", () => {
    const html = render(ALL_ON, { hasPassword: false, otpAuthEnabled: false }, 2);
    expect(removable(html)).toBe(true);
    expect(html).not.toContain(ONLY_WAY_IN);
  });
});
