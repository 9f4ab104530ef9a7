/**
 * Input that passed its schema but breaks a rule only the domain can check
 * (e.g. a permission containment that would make a cycle). The server
 * answers it as the SCHEMA_ERROR validation would, naming the request:
 * `Request validation failed on <METHOD> <path>:\n  - <message>`.
 */
export class InvalidInput extends Error {
  constructor(readonly messages: readonly string[]) {
    super(messages.join("\n"));
    this.name = "InvalidInput";
  }
}
