/**
 * Each OAuth provider's name and mark, for buttons and lists. The marks are
 * Simple Icons (CC0, the npm package simple-icons), imported one by one so a
 * bundle holds only these. Simple Icons has no Microsoft or LinkedIn mark
 * (their owners asked for them to be removed), so those two get a neutral
 * one: the name's initial in a circle. Every mark is drawn in the text's
 * colour, so it follows the button's colours in light and dark themes.
 */
import type { OAuthProviderId } from "@latchkey/js";
import { siApple, siBitbucket, siDiscord, siFacebook, siGithub, siGitlab, siGoogle, siSpotify, siTwitch, siX } from "simple-icons";

/** How each provider writes its own name. */
export const OAUTH_PROVIDER_NAMES: Record<OAuthProviderId, string> = {
  google: "Google",
  github: "GitHub",
  microsoft: "Microsoft",
  spotify: "Spotify",
  facebook: "Facebook",
  discord: "Discord",
  gitlab: "GitLab",
  bitbucket: "Bitbucket",
  linkedin: "LinkedIn",
  apple: "Apple",
  x: "X",
  twitch: "Twitch",
};

/** Paths on a 24×24 grid. */
const MARK_PATHS: Partial<Record<OAuthProviderId, string>> = {
  google: siGoogle.path,
  github: siGithub.path,
  spotify: siSpotify.path,
  facebook: siFacebook.path,
  discord: siDiscord.path,
  gitlab: siGitlab.path,
  bitbucket: siBitbucket.path,
  apple: siApple.path,
  x: siX.path,
  twitch: siTwitch.path,
};

/** The provider's name; an id this package does not know is shown as it is. */
export function oauthProviderName(id: string): string {
  return OAUTH_PROVIDER_NAMES[id as OAuthProviderId] ?? id;
}

/** Decorative: the button or item it sits in names the provider in words. */
export function OAuthProviderMark({ id }: { id: string }) {
  const path = MARK_PATHS[id as OAuthProviderId];
  return (
    <svg className="lk-provider-mark" viewBox="0 0 24 24" width="18" height="18" aria-hidden="true" focusable="false" data-provider={id}>
      {path ? (
        <path d={path} fill="currentColor" />
      ) : (
        <>
          <circle cx="12" cy="12" r="11" fill="none" stroke="currentColor" strokeWidth="2" />
          <text x="12" y="16.5" textAnchor="middle" fontSize="13" fontWeight="700" fill="currentColor" fontFamily="system-ui, sans-serif">
            {oauthProviderName(id).charAt(0).toUpperCase()}
          </text>
        </>
      )}
    </svg>
  );
}
