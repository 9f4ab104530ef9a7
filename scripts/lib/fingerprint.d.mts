export function sourcesFingerprint(root: string, sources: string[]): string;
