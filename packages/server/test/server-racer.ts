/**
 * A server process for process-one-writer.test.ts's rounds of simultaneous
 * starts: loads the server's modules, says "ready", and at the first line on
 * stdin runs main.ts (`latchkey start`). Two of them told at once race for the
 * lock at the same instant, and a round does not wait for module loading.
 */
import { createInterface } from "node:readline";

await import("../src/server.ts");
process.stdout.write("ready\n");
createInterface({ input: process.stdin }).once("line", () => void import("../src/main.ts"));
