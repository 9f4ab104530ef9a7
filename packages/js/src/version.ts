/** Sent as `x-stack-client-version`, so the server's logs show which SDK called. */
export const SDK_VERSION = "latchkey-js@0.1.0";
