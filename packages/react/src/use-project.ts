/** The project's public settings, read once per app and shared. */
import type { Project, StackClientApp } from "@latchkey/js";
import { use, useEffect, useState } from "react";
import { useStackApp } from "./provider.tsx";

const reads = new WeakMap<StackClientApp, Promise<Project>>();

function readProject(app: StackClientApp): Promise<Project> {
  let read = reads.get(app);
  if (!read) {
    read = app.getProject();
    // A failed read is not kept: the next render asks again.
    read.catch(() => reads.delete(app));
    reads.set(app, read);
  }
  return read;
}

/** Suspends on the first read. */
export function useProject(): Project {
  return use(readProject(useStackApp()));
}

/**
 * Null until the settings have arrived (and on the server), without
 * suspending: for forms that render at once and add options when they know.
 */
export function useProjectOnceLoaded(): Project | null {
  const app = useStackApp();
  const [project, setProject] = useState<Project | null>(null);
  useEffect(() => {
    let current = true;
    readProject(app).then(
      (read) => current && setProject(read),
      () => {},
    );
    return () => {
      current = false;
    };
  }, [app]);
  return project;
}
