/** The wire shapes the SDK reads: one definition, in @latchkey/shared, that the server's views are typed with. */
export type {
  AdminProjectJson,
  ClientProjectJson,
  ClientTeamJson as TeamJson,
  ClientUserJson,
  CodeSignInJson,
  ContactChannelJson,
  CreatedSessionJson,
  InternalApiKeyFirstViewJson,
  InternalApiKeyJson,
  Json,
  NotificationPreferenceJson,
  ServerTeamJson,
  ServerUserJson,
  SessionJson,
  SignInCodeSentJson,
  SignInTokensJson,
} from "@latchkey/shared/api/index";
