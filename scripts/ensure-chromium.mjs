#!/usr/bin/env node
// Makes sure Debian's Chromium is installed for the browser tests (driven by
// playwright-core; nothing is downloaded from outside the Debian and npm
// registries). Run by `npm test`; safe to run again.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";

export const CHROMIUM = process.env.LATCHKEY_CHROMIUM ?? "/usr/bin/chromium";

export function ensureChromium() {
  if (existsSync(CHROMIUM)) return CHROMIUM;
  const isRoot = typeof process.getuid === "function" && process.getuid() === 0;
  const sudo = isRoot ? [] : ["sudo", "-n"];
  console.log(`Installing Debian's chromium package for the browser tests (${CHROMIUM} is missing)…`);
  const run = (args) => {
    const [cmd, ...rest] = [...sudo, ...args];
    const result = spawnSync(cmd, rest, { stdio: "inherit", env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" } });
    return result.status === 0;
  };
  if (!run(["apt-get", "update", "-qq"]) || !run(["apt-get", "install", "-y", "-qq", "--no-install-recommends", "chromium"])) {
    throw new Error(
      `Could not install Chromium. Install Debian's package yourself (apt-get install chromium) or set LATCHKEY_CHROMIUM to a Chromium binary.`,
    );
  }
  if (!existsSync(CHROMIUM)) throw new Error(`apt-get installed chromium, but ${CHROMIUM} is still missing.`);
  return CHROMIUM;
}

if (import.meta.url === `file://${process.argv[1]}`) ensureChromium();
