// Its own chunk: two-factor setup (QR codes, one-time passwords) and passkeys load only when the owner opens their account.
export { AccountSettings as default } from "@latchkey/react";
