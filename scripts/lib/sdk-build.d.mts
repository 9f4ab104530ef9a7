export const sdkPackedDir: string;
export const SDK_PACKAGES: { dir: string; tarball: string }[];
export function sdkPackedIsCurrent(): boolean;
export function ensureSdkPacked(options?: { log?: (line: string) => void }): Promise<string>;
