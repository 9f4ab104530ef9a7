/**
 * The Svix wire's plumbing, shared by every route of the Svix-compatible API (app.ts): the bearer token that names
 * the project, errors as Svix answers them (`{code, detail}`, and `{detail: [{loc, msg, type}]}` for validation),
 * request bodies and list queries read as Svix's clients send them, and lists paged as `{data, iterator, done}`.
 */
import { Hono, type Context } from "hono";
import { z } from "zod";
import { nameRoute } from "../../../http/access-log.ts";
import { SECURITY_HEADERS } from "../../../http/response.ts";
import type { Services } from "../../../services.ts";
import { projectOfSvixToken } from "../domain/svix-token.ts";

const DEFAULT_LIMIT = 50;
const MAX_LIMIT = 250;

export class SvixError extends Error {
  constructor(
    readonly status: 401 | 404 | 409 | 422,
    readonly body: Record<string, unknown>,
  ) {
    super(typeof body.detail === "string" ? body.detail : "Validation error");
  }
}

const unauthorized = () => new SvixError(401, { code: "authentication_failed", detail: "Invalid token" });
export const notFound = () => new SvixError(404, { code: "not_found", detail: "Entity not found" });
export const conflict = (detail: string) => new SvixError(409, { code: "conflict", detail });
function invalid(error: z.ZodError, where: "body" | "query"): SvixError {
  return new SvixError(422, {
    detail: error.issues.map((issue) => ({ loc: [where, ...issue.path.map(String)], msg: issue.message, type: "value_error" })),
  });
}

const listQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_LIMIT).default(DEFAULT_LIMIT),
  iterator: z.string().nullish(),
});

/** Newest first, `limit` at a time; the iterator is the last id given (ids sort by time, ids.ts). */
export function page<T extends { id: string }>(rows: T[], limit: number) {
  const done = rows.length <= limit;
  const data = rows.slice(0, limit);
  return { data, iterator: data.at(-1)?.id ?? null, done };
}

/** A boolean query parameter: `true` is true, anything else given is false. */
export function flag(c: Context, name: string, fallback: boolean): boolean {
  const value = c.req.query(name);
  return value === undefined ? fallback : value === "true";
}

async function jsonBody(c: Context): Promise<unknown> {
  const text = await c.req.text();
  if (text === "") return {};
  try {
    return JSON.parse(text);
  } catch {
    throw new SvixError(422, { detail: [{ loc: ["body"], msg: "Invalid JSON", type: "value_error.jsondecode" }] });
  }
}

/** The request's JSON body as `schema` reads it; 422 in Svix's shape otherwise. */
export async function parsed<S extends z.ZodType>(schema: S, c: Context): Promise<z.infer<S>> {
  const result = schema.safeParse(await jsonBody(c));
  if (!result.success) throw invalid(result.error, "body");
  return result.data;
}

/** `limit` and `iterator` of a list request. */
export function listQuery(c: Context) {
  const result = listQuerySchema.safeParse(c.req.query());
  if (!result.success) throw invalid(result.error, "query");
  return result.data;
}

/** Hono's answer with the headers every answer of the server carries (http/response.ts). */
function answered(response: Response): Response {
  // Called from the dashboard's pages, wherever they are served from, as the API is.
  response.headers.set("access-control-allow-origin", "*");
  for (const name in SECURITY_HEADERS) response.headers.set(name, SECURITY_HEADERS[name]!);
  return response;
}

export type SvixMethod = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
type Handler = (c: Context, projectId: string) => Promise<Response>;
/** Serves `handler` at `method` and `/api/v1<path>`, for the project of the request's token. */
export type SvixRoute = (method: SvixMethod, path: string, handler: Handler) => void;

/**
 * The API's Hono app; `route` to add a route to it behind the token check and Svix's error answers, and, once every
 * route is added, `refuseOtherMethods` so that a known path asked with another method is 405, in Svix's shape.
 */
/**
 * Each path with and without a trailing slash: Svix's API answers both, and clients generated from its older
 * specification (and hand-written calls copied from its older docs) end every path with one.
 */
function withTrailingSlash(pattern: string): string[] {
  return [pattern, `${pattern}/`];
}

export function svixRouter(services: Services): { api: Hono; route: SvixRoute; refuseOtherMethods: () => void } {
  const api = new Hono();
  /** The methods served at each path, for the Allow header of a 405. */
  const methodsByPath = new Map<string, SvixMethod[]>();

  /** The project the bearer token is for; 401 without a valid one. */
  async function projectOf(c: Context): Promise<string> {
    const header = c.req.header("authorization") ?? "";
    const match = /^Bearer (.+)$/i.exec(header);
    const projectId = match ? projectOfSvixToken(services, match[1]!.trim()) : null;
    // A token outliving its project is no token.
    if (!projectId || !(await services.projects.get(projectId))) throw unauthorized();
    return projectId;
  }

  const route: SvixRoute = (method, path, handler) => {
    const pattern = `/api/v1${path}`;
    methodsByPath.set(pattern, [...(methodsByPath.get(pattern) ?? []), method]);
    api.on(method, withTrailingSlash(pattern), async (c) => {
      nameRoute(`(svix) ${method} ${pattern}`);
      let response: Response;
      try {
        const projectId = await projectOf(c);
        // One application per project, named by the project's id: any other is not there for this token.
        const appId = c.req.param("app_id");
        if (appId !== undefined && appId !== projectId) throw notFound();
        response = await handler(c, projectId);
      } catch (error) {
        if (!(error instanceof SvixError)) throw error;
        response = c.json(error.body, error.status);
      }
      return answered(response);
    });
  };

  // Added after every route, so that each path's own methods answer first. No token is asked: which methods a
  // path has is the same for everyone. (OPTIONS never gets here: the server's preflight answers it, app.ts.)
  function refuseOtherMethods(): void {
    for (const [pattern, methods] of methodsByPath) {
      // Left unnamed, as the server's other 405s: logged as unmatched (http/access-log.ts).
      api.on("ALL", withTrailingSlash(pattern), (c) => {
        const response = c.json({ code: "method_not_allowed", detail: "Method not allowed" }, 405);
        response.headers.set("allow", methods.join(", "));
        return answered(response);
      });
    }
  }
  return { api, route, refuseOtherMethods };
}
