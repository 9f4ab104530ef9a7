export function setTestOutputs(): void;
