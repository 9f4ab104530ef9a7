/**
 * A child process for data-dir-lock.test.ts: says "ready", waits for a line on
 * stdin (all racers get it at once), tries to take the lock of the directory in
 * argv[2], says "won" or the refusal, and holds what it got until stdin closes.
 */
import { createInterface } from "node:readline";
import { lockDataDir } from "../src/process/data-dir-lock.ts";

const lines = createInterface({ input: process.stdin });
process.stdout.write("ready\n");
lines.once("line", () => {
  try {
    lockDataDir(process.argv[2]!, null);
    process.stdout.write("won\n");
  } catch (error) {
    process.stdout.write(`refused: ${(error as Error).message}\n`);
  }
});
lines.once("close", () => process.exit(0));
