/**
 * Every URL of the dashboard. Project pages come from pages/project-pages.ts; each is its own chunk.
 * Each top-level path is one of @latchkey/shared's DASHBOARD_ROUTE_ROOTS: the server serves pages only under those.
 */
import type { DashboardRouteRoot } from "@latchkey/shared";
import { Suspense } from "react";
import { Navigate, Outlet, createBrowserRouter } from "react-router";
import { OwnerArea } from "./layout/owner-area.tsx";
import { PlainLayout, ProjectLayout } from "./layout/project-layout.tsx";
import { useOwnedProjects } from "./lib/owned-projects.tsx";
import { projectHome, projectPages, projectPath } from "./pages/project-pages.ts";
import { ownerPages } from "./pages/owner-pages.ts";
import { NotFound } from "./pages/not-found.tsx";
import { Loading } from "./ui/states.tsx";

/**
 * Every page renders inside the router, suspended or not: a boundary above the router would hide it
 * before it starts listening, and the SDK's redirects (sign-in) would then never show.
 */
function Root() {
  return (
    <Suspense fallback={<Loading />}>
      <Outlet />
    </Suspense>
  );
}

/** "/": the owner's first project, or the first run when they have none. */
function Home() {
  const { projects } = useOwnedProjects();
  return <Navigate replace to={projects[0] ? projectPath(projects[0].id, projectHome) : "/new-project"} />;
}

export const router = createBrowserRouter([
  {
    element: <Root />,
    HydrateFallback: Loading,
    children: [
      // The owner's own sign-in and account pages: their own chunk, which the signed-in frame never loads.
      {
        path: `/${"handler" satisfies DashboardRouteRoot}/*`,
        lazy: async () => ({ Component: (await import("./layout/handler-pages.tsx")).HandlerPages }),
      },
      // An app's end user buying a product: public, the code in the URL is the credential (no owner sign-in).
      // Where Stripe sends the buyer after a card payment (a fixed path: it wins over a code).
      {
        path: `/${"purchase" satisfies DashboardRouteRoot}/return`,
        lazy: async () => ({ Component: (await import("./pages/purchase/purchase-return-page.tsx")).default }),
      },
      {
        path: `/${"purchase" satisfies DashboardRouteRoot}/:code`,
        lazy: async () => ({ Component: (await import("./pages/purchase/purchase-page.tsx")).default }),
      },
      {
        element: <OwnerArea />,
        children: [
          { index: true, element: <Home /> },
          {
            element: <PlainLayout />,
            children: ownerPages.map((page) => ({
              path: page.path,
              lazy: async () => ({ Component: (await page.load()).default }),
            })),
          },
          {
            path: `${"projects" satisfies DashboardRouteRoot}/:projectId`,
            element: <ProjectLayout />,
            children: [
              ...(projectHome ? [{ index: true, element: <Navigate replace to={projectHome} /> }] : []),
              ...projectPages.map((page) => ({
                ...(page.path ? { path: page.path } : { index: true }),
                lazy: async () => ({ Component: (await page.load()).default }),
              })),
            ],
          },
        ],
      },
      { path: "*", element: <NotFound /> },
    ],
  },
]);
