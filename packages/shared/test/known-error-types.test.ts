import { describe, expect, it } from "vitest";
import { fileURLToPath } from "node:url";
import ts from "typescript";
import { KnownError, KnownErrors, RateLimitedError, StatusError, isKnownError, knownErrorFromJson } from "../src/index.ts";

const root = fileURLToPath(new URL("../../..", import.meta.url));

describe("known error types", () => {
  it("type checks details, errorCode and narrowing by code without casts", () => {
    const config = ts.readConfigFile(`${root}tsconfig.base.json`, ts.sys.readFile);
    const { options } = ts.parseJsonConfigFileContent(config.config, ts.sys, root);
    const file = fileURLToPath(new URL("./types/typed-errors.ts", import.meta.url));
    const program = ts.createProgram([file], { ...options, noEmit: true });
    const messages = ts
      .getPreEmitDiagnostics(program)
      .map(
        (d) =>
          `${d.file?.fileName ?? ""}:${d.file?.getLineAndCharacterOfPosition(d.start ?? 0).line ?? 0}: ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`,
      );
    expect(messages).toEqual([]);
  }, 60_000);
});

describe("isKnownError", () => {
  it("accepts catalogue errors, thrown or rebuilt, and checks the code", () => {
    const thrown = new KnownErrors.UserWithEmailAlreadyExists("a@example.com", true);
    const rebuilt = knownErrorFromJson(JSON.parse(JSON.stringify(thrown)));
    for (const error of [thrown, rebuilt]) {
      expect(isKnownError(error)).toBe(true);
      expect(isKnownError(error, "USER_EMAIL_ALREADY_EXISTS")).toBe(true);
      expect(isKnownError(error, "USER_NOT_FOUND")).toBe(false);
      expect(error!.errorCode).toBe("USER_EMAIL_ALREADY_EXISTS");
    }
    expect(rebuilt!.details).toEqual({ email: "a@example.com", would_work_if_email_was_verified: true });
  });

  it("names a taken e-mail lower-cased, however it was spelled", () => {
    const error = new KnownErrors.UserWithEmailAlreadyExists("Ada@Example.COM");
    expect(error.details).toEqual({ email: "ada@example.com", would_work_if_email_was_verified: false });
    expect(error.message).toContain('"ada@example.com"');
  });

  it("refuses anything else", () => {
    expect(isKnownError(new Error("USER_NOT_FOUND"))).toBe(false);
    expect(isKnownError({ code: "USER_NOT_FOUND", errorCode: "USER_NOT_FOUND" })).toBe(false);
    expect(isKnownError(new KnownError(400, "MADE_UP", "x", undefined))).toBe(false);
    expect(isKnownError(new StatusError(404, "gone"))).toBe(false);
    expect(isKnownError(null)).toBe(false);
  });
});

describe("plain-status errors", () => {
  it("carry the status (and Retry-After seconds) and are not coded", () => {
    const plain = new StatusError(409, "Try again.");
    expect(plain).toBeInstanceOf(Error);
    expect([plain.status, plain.message]).toEqual([409, "Try again."]);
    const limited = new RateLimitedError(30, "Slow down.");
    expect(limited).toBeInstanceOf(StatusError);
    expect([limited.status, limited.retryAfterSeconds, limited.message]).toEqual([429, 30, "Slow down."]);
    expect(limited).not.toBeInstanceOf(KnownError);
  });
});
