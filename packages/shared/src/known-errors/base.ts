/**
 * The base of every coded error. A coded error travels as JSON
 * `{ code, details?, error }` with the `x-stack-known-error` header, so the
 * server throws it and the SDK rebuilds the same class from the response.
 */
export type KnownErrorDetails = Record<string, unknown>;

export interface KnownErrorJson {
  code: string;
  details?: KnownErrorDetails;
  error: string;
}

export class KnownError extends Error {
  /** Set on each concrete class by `defineKnownError`. */
  static readonly code: string = "";
  readonly code: string;
  readonly statusCode: number;
  readonly details: KnownErrorDetails | undefined;

  constructor(statusCode: number, code: string, message: string, details?: KnownErrorDetails) {
    super(message);
    this.name = code;
    this.statusCode = statusCode;
    this.code = code;
    this.details = details;
  }

  /**
   * The same value as `code`, under the name apps written for the official
   * SDKs test. A getter, so errors rebuilt from JSON have it too.
   */
  get errorCode(): string {
    return this.code;
  }

  /** Body keys in the order the wire contract fixes: code, details, error. */
  toJSON(): KnownErrorJson {
    return this.details === undefined
      ? { code: this.code, error: this.message }
      : { code: this.code, details: this.details, error: this.message };
  }
}

/**
 * One catalogue entry's error: its exact code and details shape, so a
 * narrowed error needs no casts. (Not a generic `KnownError`: `instanceof`
 * would then leave a value already typed `KnownError` un-narrowed.)
 */
export type CodedKnownError<Code extends string, Details> = Omit<KnownError, "code" | "errorCode" | "details"> & {
  readonly code: Code;
  readonly errorCode: Code;
  readonly details: Details;
};

type Built = { message: string; details?: KnownErrorDetails | undefined };

/** What a builder's `details` is; `undefined` when it returns none. */
export type DetailsOf<B> = B extends { details: infer D } ? D : B extends { details?: infer D } ? D | undefined : undefined;

export type KnownErrorClass<Args extends unknown[] = never[], Code extends string = string, Details = KnownErrorDetails | undefined> = {
  new (...args: Args): CodedKnownError<Code, Details>;
  readonly prototype: CodedKnownError<Code, Details>;
  readonly code: Code;
  /** The same value as `code`, as the official SDKs name it. */
  readonly errorCode: Code;
  readonly statusCode: number;
};

const registry = new Map<string, KnownErrorClass>();

/**
 * Defines one catalogue entry. `parent` lets a family share a base class so a
 * caller can catch e.g. every invalid-access-token variant at once.
 */
export function defineKnownError<const Code extends string, Args extends unknown[], B extends Built>(
  code: Code,
  statusCode: number,
  build: (...args: Args) => B,
  parent: abstract new (...a: any[]) => KnownError = KnownError,
): KnownErrorClass<Args, Code, DetailsOf<B>> {
  if (registry.has(code)) throw new Error(`Known error ${code} is defined twice`);
  const Parent = parent as unknown as typeof KnownError;
  const cls = class extends Parent {
    static override readonly code = code;
    static readonly errorCode = code;
    static readonly statusCode = statusCode;
    constructor(...args: Args) {
      const built = build(...args);
      super(statusCode, code, built.message, built.details);
    }
  };
  Object.defineProperty(cls, "name", { value: code });
  registry.set(code, cls as unknown as KnownErrorClass);
  return cls as unknown as KnownErrorClass<Args, Code, DetailsOf<B>>;
}

/** An abstract family base (never sent on its own). */
export function defineKnownErrorFamily(name: string): abstract new (...a: any[]) => KnownError {
  const family = class extends KnownError {};
  Object.defineProperty(family, "name", { value: name });
  return family as unknown as abstract new (...a: any[]) => KnownError;
}

export function knownErrorClassByCode(code: string): KnownErrorClass | undefined {
  return registry.get(code);
}

export function allKnownErrorCodes(): string[] {
  return [...registry.keys()];
}

/**
 * Rebuilds the typed error from a response body: an instance of the code's
 * own class, so `instanceof KnownErrors.X` narrows it with its details type.
 * Returns null when the code is not in the catalogue (the caller then treats
 * it as an unknown failure).
 */
export function knownErrorFromJson(json: unknown): KnownError | null {
  if (typeof json !== "object" || json === null) return null;
  const { code, error, details } = json as Partial<KnownErrorJson>;
  if (typeof code !== "string" || typeof error !== "string") return null;
  const cls = registry.get(code);
  if (!cls) return null;
  const instance = Object.create(cls.prototype) as KnownError;
  Object.assign(instance, {
    name: code,
    code,
    statusCode: cls.statusCode,
    message: error,
    details: details ?? undefined,
  });
  Object.defineProperty(instance, "stack", { value: `${code}: ${error}`, writable: true });
  return instance;
}

/** Whether `code` names an entry of the catalogue (families excluded). */
export function isCatalogueCode(code: string): boolean {
  return registry.has(code);
}
