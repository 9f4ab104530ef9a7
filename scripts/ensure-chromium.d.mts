/** The Chromium binary the browser tests use (LATCHKEY_CHROMIUM, default /usr/bin/chromium). */
export declare const CHROMIUM: string;
/** Installs Debian's chromium package when it is missing; returns the binary's path. */
export declare function ensureChromium(): string;
