export const dashboardRoot: string;
export const dashboardDist: string;
export function ensureDashboardBuilt(options?: { log?: (line: string) => void }): Promise<string>;
