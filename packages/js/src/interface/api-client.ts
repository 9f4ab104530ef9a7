/**
 * The one HTTP layer under all three apps: it adds the project's headers and
 * credentials, sends, retries what may be retried, and turns answers into
 * data or typed errors (what the SDK does with each coded answer).
 */
import type {
  EndpointBody,
  EndpointDefinition,
  EndpointParams,
  EndpointQuery,
  EndpointResponse,
  Endpoints,
} from "@latchkey/shared/api/index";
import { API_PREFIX, PUBLIC_CLIENT_SECRET_SENTINEL } from "@latchkey/shared/constants";
import { KnownError, KnownErrors, knownErrorFromJson } from "@latchkey/shared/known-errors/index";
import { ConnectionError, HttpError, KnownErrorMismatchError, OFFLINE_MESSAGE, cannotConnectMessage } from "../errors.ts";
import type { Session } from "../session/session.ts";
import { SDK_VERSION } from "../version.ts";
import { MAX_ATTEMPTS, MAX_RATE_LIMIT_WAIT_MILLIS, isIdempotent, retryAfterMillis, retryDelayMillis, sleep } from "./retry.ts";

export type AccessType = "client" | "server" | "admin";

export interface ApiClientOptions {
  /** Where the server runs, e.g. `http://localhost:8102` (the SDK adds `/api/v1`). */
  baseUrl: string;
  projectId: string;
  publishableClientKey?: string | undefined;
  secretServerKey?: string | undefined;
  superSecretAdminKey?: string | undefined;
  extraRequestHeaders?: Record<string, string> | undefined;
  /** Defaults to the global fetch. */
  fetch?: typeof fetch | undefined;
}

export interface RequestOptions {
  method?: string;
  /** Sent as JSON. */
  body?: unknown;
  query?: Record<string, string | number | boolean | null | undefined>;
  accessType: AccessType;
  /** The signed-in user's session, whose access token goes in `x-stack-access-token`. */
  session?: Session | null | undefined;
  /** A project owner's session (internal project): its access token goes in `x-stack-admin-access-token`. */
  adminSession?: Session | null | undefined;
  headers?: Record<string, string>;
}

/** Who calls, with which session: what every call names besides the endpoint's own input. */
export interface CallContext<A extends AccessType = AccessType> {
  accessType: A;
  /** The signed-in user's session, whose access token goes in `x-stack-access-token`. */
  session?: Session | null | undefined;
  /** A project owner's session (internal project): its access token goes in `x-stack-admin-access-token`. */
  adminSession?: Session | null | undefined;
  headers?: Record<string, string>;
}

type Part<Name extends string, T> = [T] extends [undefined]
  ? { [K in Name]?: undefined }
  : Record<never, never> extends T
    ? { [K in Name]?: T }
    : { [K in Name]: T };

/** An endpoint's input as the SDK gives it: path parameters, query and body, each typed by the contract. */
export type CallInput<E extends EndpointDefinition, A extends AccessType> = Part<"params", EndpointParams<E>> &
  Part<"query", EndpointQuery<E>> &
  Part<"body", EndpointBody<E, A>>;

export type EndpointName = keyof Endpoints & string;

export class ApiClient {
  readonly baseUrl: string;
  /**
   * A project owner's session sent with every request that names none (an
   * admin app working with an owner's session rather than the admin key).
   */
  defaultAdminSession: Session | null = null;

  constructor(private readonly options: ApiClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  get projectId(): string {
    return this.options.projectId;
  }

  /**
   * How this app names itself where OAuth asks for a client (the authorize
   * and token endpoints): the project, and its publishable key or the
   * sentinel that stands for none.
   */
  oauthClient(): { client_id: string; client_secret: string } {
    return { client_id: this.options.projectId, client_secret: this.options.publishableClientKey || PUBLIC_CLIENT_SECRET_SENTINEL };
  }

  /** The absolute URL of an API path, for the browser to open itself (e.g. the OAuth authorize endpoint). */
  urlOf(path: string, query?: RequestOptions["query"]): string {
    return this.url(path, query);
  }

  /**
   * Calls an endpoint of the contract by its name, `"<METHOD> <path>"` as
   * @latchkey/shared declares it; the path parameters, query, body and answer
   * are typed from its schemas:
   *
   *   const user = await api.call("GET /users/:user_id", { accessType: "server", params: { user_id: id } });
   */
  call<K extends EndpointName, A extends AccessType>(
    endpoint: K,
    request: CallContext<A> & CallInput<Endpoints[K], A>,
  ): Promise<EndpointResponse<Endpoints[K], A>> {
    const { path, options } = this.requestOf(endpoint, request);
    return this.send(path, options) as Promise<EndpointResponse<Endpoints[K], A>>;
  }

  /**
   * Like `call`, for an endpoint whose answer is read as it arrives (an
   * export): resolves with the body's byte stream once the server has
   * answered with success; errors are thrown as `call` throws them.
   */
  async stream<K extends EndpointName, A extends AccessType>(
    endpoint: K,
    request: CallContext<A> & CallInput<Endpoints[K], A>,
  ): Promise<ReadableStream<Uint8Array>> {
    const { path, options } = this.requestOf(endpoint, request);
    const response = await this.respond(path, options);
    if (!response.body) throw new HttpError(response.status, "", options.method ?? "GET", this.url(path, options.query));
    return response.body;
  }

  private requestOf<K extends EndpointName, A extends AccessType>(
    endpoint: K,
    request: CallContext<A> & CallInput<Endpoints[K], A>,
  ): { path: string; options: RequestOptions } {
    const space = endpoint.indexOf(" ");
    const method = endpoint.slice(0, space);
    const params = (request.params ?? {}) as Record<string, string>;
    const path = endpoint.slice(space + 1).replace(/:([A-Za-z0-9_]+)/g, (_, name: string) => {
      const value = params[name];
      if (value === undefined) throw new Error(`${endpoint}: the path parameter ${name} is missing.`);
      return encodeURIComponent(value);
    });
    const query = request.query as RequestOptions["query"];
    return {
      path,
      options: {
        method,
        accessType: request.accessType,
        session: request.session,
        adminSession: request.adminSession,
        ...(request.headers ? { headers: request.headers } : {}),
        ...(query ? { query } : {}),
        ...(request.body !== undefined ? { body: request.body } : {}),
      },
    };
  }

  /**
   * The transport under `call`: sends the request; resolves with the parsed
   * JSON (or text) body of a 2xx answer. Untyped, so the SDK's own code calls
   * endpoints through `call` only (a unit test holds it to that).
   */
  async send<T = unknown>(path: string, request: RequestOptions): Promise<T> {
    const response = await this.respond(path, request);
    return parseBody(await response.text(), response.headers.get("content-type")) as T;
  }

  /** Sends with retries; resolves with a 2xx answer whose body is still unread, or throws what the answer says. */
  private async respond(path: string, request: RequestOptions): Promise<Response> {
    const method = (request.method ?? "GET").toUpperCase();
    const url = this.url(path, request.query);
    const adminSession = request.adminSession === undefined ? this.defaultAdminSession : request.adminSession;
    // A refused token is dropped and the call retried once with a fresh one;
    // refused again, the error stands.
    let accessRetried = false;
    let adminRetried = false;
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= MAX_ATTEMPTS;
      const accessToken = request.session ? await request.session.getAccessToken() : null;
      const adminToken = adminSession ? await adminSession.getAccessToken() : null;
      if (isOffline()) throw new ConnectionError(OFFLINE_MESSAGE);

      let response: Response;
      try {
        response = await (this.options.fetch ?? fetch)(url, {
          method,
          headers: this.headers(request, accessToken, adminToken),
          ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
        });
      } catch (error) {
        if (isOffline()) throw new ConnectionError(OFFLINE_MESSAGE, { cause: error });
        if (!isIdempotent(method) || last) {
          throw new ConnectionError(cannotConnectMessage(this.baseUrl, attempt, error), { cause: error });
        }
        await sleep(retryDelayMillis(attempt));
        continue;
      }

      const code = response.headers.get("x-stack-known-error");
      const rateLimitWait = response.status === 429 && !last ? retryAfterMillis(response.headers.get("retry-after"), attempt) : null;
      // A longer wait (a lockout after many wrong passwords or codes) is for the user to hear about, not for a spinner to sit out.
      if (rateLimitWait !== null && rateLimitWait <= MAX_RATE_LIMIT_WAIT_MILLIS) {
        await response.body?.cancel();
        await sleep(rateLimitWait);
        continue;
      }
      if (response.status === 508 && code === "INFINITE_LOOP_DETECTED" && !last) {
        await response.body?.cancel();
        await sleep(retryDelayMillis(attempt));
        continue;
      }
      if (response.ok && code === null) return response;
      const text = await response.text();
      if (code !== null) {
        const error = parseKnownError(code, text) ?? new HttpError(response.status, text, method, url);
        // A token the server refuses is dropped; the next attempt refreshes it.
        if (error instanceof KnownErrors.InvalidAccessToken && accessToken !== null && !accessRetried && !last) {
          accessRetried = true;
          request.session!.markAccessTokenExpired(accessToken);
          continue;
        }
        if (error instanceof KnownErrors.InvalidAdminAccessToken && adminToken !== null && !adminRetried && !last) {
          adminRetried = true;
          adminSession!.markAccessTokenExpired(adminToken);
          continue;
        }
        throw error;
      }
      throw new HttpError(response.status, text, method, url);
    }
  }

  /**
   * A new access token for this refresh token, or null when the server no
   * longer accepts it. Network and server failures are thrown, so a flaky
   * connection never signs anyone out.
   */
  async refreshAccessToken(refreshToken: string, accessType: AccessType): Promise<string | null> {
    try {
      const body = await this.call("POST /auth/sessions/current/refresh", {
        accessType,
        headers: { "x-stack-refresh-token": refreshToken },
      });
      return body.access_token;
    } catch (error) {
      if (error instanceof KnownErrors.RefreshTokenNotFoundOrExpired) return null;
      throw error;
    }
  }

  private url(path: string, query: RequestOptions["query"]): string {
    const params = new URLSearchParams();
    for (const [key, value] of Object.entries(query ?? {})) {
      if (value !== undefined && value !== null) params.set(key, String(value));
    }
    const search = params.toString();
    return `${this.baseUrl}${API_PREFIX}${path}${search ? `?${search}` : ""}`;
  }

  private headers(request: RequestOptions, accessToken: string | null, adminToken: string | null): Record<string, string> {
    const { publishableClientKey, secretServerKey, superSecretAdminKey } = this.options;
    const headers: Record<string, string> = {
      ...this.options.extraRequestHeaders,
      "x-stack-project-id": this.options.projectId,
      "x-stack-access-type": request.accessType,
      "x-stack-client-version": SDK_VERSION,
    };
    if (request.body !== undefined) headers["content-type"] = "application/json";
    if (publishableClientKey) headers["x-stack-publishable-client-key"] = publishableClientKey;
    if (request.accessType !== "client" && secretServerKey) headers["x-stack-secret-server-key"] = secretServerKey;
    if (request.accessType === "admin" && superSecretAdminKey) headers["x-stack-super-secret-admin-key"] = superSecretAdminKey;
    if (accessToken !== null) headers["x-stack-access-token"] = accessToken;
    if (adminToken !== null) headers["x-stack-admin-access-token"] = adminToken;
    return { ...headers, ...request.headers };
  }
}

function parseKnownError(headerCode: string, text: string): KnownError | null {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new KnownErrorMismatchError(headerCode, undefined);
  }
  const bodyCode = (json as { code?: unknown } | null)?.code;
  if (bodyCode !== headerCode) throw new KnownErrorMismatchError(headerCode, bodyCode);
  return knownErrorFromJson(json);
}

function parseBody(text: string, contentType: string | null): unknown {
  if (contentType?.includes("application/json")) return text === "" ? null : JSON.parse(text);
  return text;
}

function isOffline(): boolean {
  return typeof navigator !== "undefined" && navigator.onLine === false;
}
