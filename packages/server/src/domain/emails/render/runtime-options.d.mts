import type { BuildOptions } from "esbuild";

export declare const runtimeBuildOptions: BuildOptions & { entryPoints: string[] };
