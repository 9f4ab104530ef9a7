/**
 * The Svix application of the Svix-compatible API (app.ts): one per project, there already, its id, uid and name
 * the project's id. Creating it answers it.
 */
import { z } from "zod";
import type { Services } from "../../../services.ts";
import { notFound, parsed, type SvixRoute } from "./router.ts";

export function applicationRoutes(route: SvixRoute, services: Services): void {
  async function appJson(projectId: string) {
    const project = await services.projects.get(projectId);
    const createdAt = project!.createdAt.toISOString();
    return {
      id: projectId,
      uid: projectId,
      name: projectId,
      rateLimit: null,
      throttleRate: null,
      metadata: {},
      createdAt,
      updatedAt: createdAt,
    };
  }

  route("POST", "/app", async (c, projectId) => {
    const body = await parsed(z.object({ name: z.string().optional(), uid: z.string().nullish() }), c);
    if (body.uid && body.uid !== projectId) throw notFound();
    return c.json(await appJson(projectId), 200);
  });
  route("GET", "/app/:app_id", async (c, projectId) => c.json(await appJson(projectId)));
}
