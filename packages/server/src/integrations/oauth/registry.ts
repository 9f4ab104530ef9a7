/** Every provider Latchkey can sign in with (OAUTH_PROVIDER_IDS in @latchkey/shared constants.ts), by id. */
import type { OAuthProviderId } from "@latchkey/shared";
import type { OAuthProviderDefinition } from "./provider.ts";
import { apple } from "./providers/apple.ts";
import { bitbucket } from "./providers/bitbucket.ts";
import { discord } from "./providers/discord.ts";
import { facebook } from "./providers/facebook.ts";
import { github } from "./providers/github.ts";
import { gitlab } from "./providers/gitlab.ts";
import { google } from "./providers/google.ts";
import { linkedin } from "./providers/linkedin.ts";
import { microsoft } from "./providers/microsoft.ts";
import { spotify } from "./providers/spotify.ts";
import { twitch } from "./providers/twitch.ts";
import { x } from "./providers/x.ts";

export const OAUTH_PROVIDERS: Readonly<Record<OAuthProviderId, OAuthProviderDefinition>> = {
  google,
  github,
  microsoft,
  spotify,
  facebook,
  discord,
  gitlab,
  bitbucket,
  linkedin,
  apple,
  x,
  twitch,
};
