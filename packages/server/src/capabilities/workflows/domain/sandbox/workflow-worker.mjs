// The workflow sandbox worker's entry. A worker thread starts without the parent's TypeScript loader (and under
// vitest there is none to inherit), so it registers tsx's, then loads the worker itself.
import { register } from "tsx/esm/api";

register();
await import("./worker.ts");
