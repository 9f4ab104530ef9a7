/** Sessions and the tokens auth endpoints answer with (WIRE §2.3, §2.8). */
export interface SessionJson {
  id: string;
  user_id: string;
  created_at: number;
  last_used_at: number;
  is_impersonation: boolean;
  is_current_session: boolean;
  last_used_at_end_user_ip_info?: { ip: string };
}

/** Sign-up, sign-in, anonymous sign-up. */
export interface SignInTokensJson {
  access_token: string;
  refresh_token: string;
  user_id: string;
}

/** `POST /auth/sessions` (server). */
export interface CreatedSessionJson {
  access_token: string;
  refresh_token: string;
}

/** `POST /auth/otp/sign-in` (and the other code sign-ins): the tokens, and whether the account was just made. */
export interface CodeSignInJson extends SignInTokensJson {
  is_new_user: boolean;
}

/** `POST /auth/otp/send-sign-in-code`: the part of the code the client keeps; the user types the other 6 characters. */
export interface SignInCodeSentJson {
  nonce: string;
}
