/** The project's public settings, read once per app and shared (suspends on the first read). */
import type { Project, StackClientApp } from "@latchkey/js";
import { use } from "react";
import { useStackApp } from "./provider.tsx";

const reads = new WeakMap<StackClientApp, Promise<Project>>();

export function useProject(): Project {
  const app = useStackApp();
  let read = reads.get(app);
  if (!read) {
    read = app.getProject();
    // A failed read is not kept: the next render asks again.
    read.catch(() => reads.delete(app));
    reads.set(app, read);
  }
  return use(read);
}
