/** A user's contact channel (WIRE §2.3); only e-mail today. */
export interface ContactChannelJson {
  id: string;
  is_primary: boolean;
  is_verified: boolean;
  type: "email";
  used_for_auth: boolean;
  user_id: string;
  value: string;
}
