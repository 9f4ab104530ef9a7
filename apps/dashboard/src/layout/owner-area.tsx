/**
 * Everything behind sign-in: the owner (sent to the sign-in page when
 * signed out, and back here after) and the projects their teams own.
 */
import type { AdminOwnedProject } from "@latchkey/js";
import { CurrentInternalUser } from "@latchkey/js";
import { useUser } from "@latchkey/react";
import { useCallback, useEffect, useState } from "react";
import { Outlet } from "react-router";
import { OwnedProjectsContext } from "../lib/owned-projects.tsx";
import { ErrorNotice, Loading } from "../ui/states.tsx";

export function OwnerArea() {
  const user = useUser({ or: "redirect" });
  if (!(user instanceof CurrentInternalUser)) throw new Error("The dashboard's app is the internal project's.");
  return <WithProjects owner={user} />;
}

function WithProjects({ owner }: { owner: CurrentInternalUser }) {
  const [projects, setProjects] = useState<AdminOwnedProject[] | null>(null);
  const [error, setError] = useState<unknown>(null);
  const refresh = useCallback(async () => {
    const list = await owner.listOwnedProjects();
    setProjects(list);
    return list;
  }, [owner]);
  const load = useCallback(() => {
    setError(null);
    refresh().catch(setError);
  }, [refresh]);
  useEffect(load, [load]);

  if (error && !projects) return <ErrorNotice error={error} retry={load} />;
  if (!projects) return <Loading label="Loading your projects…" />;
  return (
    <OwnedProjectsContext.Provider value={{ owner, projects, refresh }}>
      <Outlet />
    </OwnedProjectsContext.Provider>
  );
}
