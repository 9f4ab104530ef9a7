export const serverRoot: string;
export const serverDist: string;
export function serverBuildIsCurrent(outDir?: string): boolean;
export function buildServer(options?: { outDir?: string }): Promise<string>;
export function ensureServerBuilt(): string;
