export const dashboardRoot: string;
export const dashboardDist: string;
export function dashboardBuildIsCurrent(): boolean;
export function ensureDashboardBuilt(options?: { log?: (line: string) => void }): Promise<string>;
