#!/usr/bin/env node
// Lints Dockerfiles as strictly as ESLint and Prettier hold the code: every
// finding of dockerfile-utils' validator is an error (its command line only
// fails on errors and lets warnings pass), and the file must be laid out as
// its formatter would (continuation lines indented by two spaces).
//
//   node scripts/lint-dockerfile.mjs [--fix] [file …]   (default: Dockerfile)
//
// --fix rewrites the layout; validator findings are for a person to fix.
import { readFileSync, writeFileSync } from "node:fs";
import { format, validate, ValidationSeverity } from "dockerfile-utils";

/** Every check the validator can be told about, raised to an error. */
const STRICT = Object.fromEntries(
  [
    "deprecatedMaintainer",
    "directiveCasing",
    "emptyContinuationLine",
    "instructionCasing",
    "instructionCmdMultiple",
    "instructionEntrypointMultiple",
    "instructionHealthcheckMultiple",
    "instructionJSONInSingleQuotes",
    "instructionWorkdirRelative",
  ].map((setting) => [setting, ValidationSeverity.ERROR]),
);

const LAYOUT = { tabSize: 2, insertSpaces: true };

/** The text with the formatter's edits applied (they never overlap; applied from the last). */
function formatted(content) {
  const lineStarts = [0];
  for (let i = 0; i < content.length; i++) if (content[i] === "\n") lineStarts.push(i + 1);
  const offset = ({ line, character }) => lineStarts[line] + character;
  const edits = format(content, LAYOUT).sort((a, b) => offset(b.range.start) - offset(a.range.start));
  let text = content;
  for (const edit of edits) text = text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
  return text;
}

const args = process.argv.slice(2);
const fix = args.includes("--fix");
const files = args.filter((arg) => arg !== "--fix");
let problems = 0;
for (const file of files.length ? files : ["Dockerfile"]) {
  let content = readFileSync(file, "utf8");
  const laidOut = formatted(content);
  if (laidOut !== content) {
    if (fix) {
      writeFileSync(file, laidOut);
      content = laidOut;
    } else {
      console.error(`${file}: not laid out as dockerfile-utils formats it: run \`node scripts/lint-dockerfile.mjs --fix ${file}\`.`);
      problems++;
    }
  }
  for (const diagnostic of validate(content, STRICT)) {
    console.error(`${file}:${diagnostic.range.start.line + 1}:${diagnostic.range.start.character + 1}: ${diagnostic.message}`);
    problems++;
  }
}
process.exit(problems ? 1 : 0);
