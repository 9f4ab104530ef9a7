/**
 * The program the sandbox starts with (bundled by runtime-bundle.ts): React,
 * its streaming server renderer and the React Email components, plus the
 * `__latchkey` object the host calls. It loads the project's compiled theme
 * and template, renders them, and answers with a JSON string, so no object
 * ever crosses between the sandbox and the host.
 */
import { decodeUtf8, runTask, type ByteStream } from "./polyfills.ts"; // first: React's renderer needs these as it loads
import * as React from "react";
import * as JsxRuntime from "react/jsx-runtime";
import { renderToReadableStream } from "react-dom/server.browser";
import * as Components from "./components.ts";
import { clearDeclarations, declarations } from "./declarations.ts";
import * as EmailHelpers from "./email-helpers.ts";
import { current, logosOf } from "./project-logos.ts";
import * as ArkType from "arktype";

/**
 * What a stored module may import; everything else fails. The helpers module and arktype (which templates
 * use to declare their variables) are there so that templates written for the wire contract's other servers
 * render unchanged.
 */
const MODULES: Record<string, unknown> = {
  react: React,
  "react/jsx-runtime": JsxRuntime,
  "@react-email/components": Components,
  "@stackframe/emails": EmailHelpers,
  arktype: ArkType,
};

/** E-mail clients still expect the XHTML doctype React Email uses, not React's `<!DOCTYPE html>`. */
const DOCTYPE = '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Transitional//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-transitional.dtd">';

/**
 * React 19 hoists a `<link rel="preload" as="image">` for every image into the
 * head (or in front of a fragment): useful to browsers, noise in an e-mail.
 */
const IMAGE_PRELOAD = /<link rel="preload" as="image"[^>]*\/>/g;

/** A broken contract, reported as its message alone (unlike what the TSX throws, reported with its name). */
class ContractError extends Error {}

interface Job {
  templateCode: string;
  themeCode: string | null;
  props: Props;
  unsubscribeLink: string | null;
  seed: number;
}

type Exports = Record<string, unknown>;

function load(code: string, what: string): Exports {
  const module = { exports: {} as Exports };
  const require = (name: string) => {
    if (Object.prototype.hasOwnProperty.call(MODULES, name)) return MODULES[name];
    throw new ContractError(`${what} imports "${name}", which is not available`);
  };
  new Function("module", "exports", "require", code)(module, module.exports, require);
  return module.exports;
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  if (typeof value === "object") return "an object";
  return typeof value === "undefined" ? "undefined" : `a ${typeof value}`;
}

/** The component, checked to return an element (not a string, null, or any other value). */
type Props = Record<string, unknown>;

function component(value: unknown, what: string, name: string): React.FC<Props> {
  if (typeof value !== "function") throw new ContractError(`${what} does not export a function named ${name}`);
  const render = value as (props: Props) => unknown;
  const Checked = (props: Props) => {
    const out = render(props);
    if (!React.isValidElement(out)) throw new ContractError(`${name} returned ${describe(out)} instead of a React element`);
    return out;
  };
  Checked.displayName = name;
  return Checked;
}

function subjectOf(value: unknown, props: object): string | null {
  if (value === undefined) return null;
  const subject = typeof value === "function" ? (value as (props: object) => unknown)(props) : value;
  if (typeof subject !== "string") {
    throw new ContractError(`subject must be a string or a function returning one, but it gave ${describe(subject)}`);
  }
  return subject;
}

/** Math.random starts from the same state in every render (the sandbox is restored from one snapshot): give each its own. */
function reseed(seed: number) {
  let state = seed >>> 0 || 1;
  Math.random = () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

async function renderHtml(element: React.ReactElement): Promise<string> {
  let failure: { error: unknown } | null = null;
  const stream = (await renderToReadableStream(element, {
    onError(error) {
      failure ??= { error };
    },
  })) as unknown as ByteStream;
  await stream.allReady;
  if (failure) throw (failure as { error: unknown }).error;
  const html = decodeUtf8(stream.readAll())
    .replace(/^<!DOCTYPE[^>]*>/i, "")
    .replace(IMAGE_PRELOAD, "");
  return html.startsWith("<html") ? DOCTYPE + html : html;
}

/** React's production build numbers its errors; spell out the ones a template most often makes. */
const REACT_ERRORS: Record<string, (arg: string) => string> = {
  "31": (arg) => `Objects are not valid as a React child (found: ${arg})`,
  "130": (arg) => `Element type is invalid: expected a string or a component but got ${arg} (an import that does not exist?)`,
};

function reactMessage(message: string): string {
  const match = /^Minified React error #(\d+); visit \S*?(?:\?args\[\]=([^&\s]*))?(?:&\S*)?\s/.exec(message);
  const explain = match && REACT_ERRORS[match[1]!];
  return explain ? explain(decodeURIComponent(match[2] ?? "")) : message;
}

function errorMessage(error: unknown): string {
  if (error instanceof ContractError) return error.message;
  if (error instanceof Error) return `${error.name}: ${reactMessage(error.message)}`;
  return `it threw ${describe(error)}`;
}

async function render(jobJson: string): Promise<string> {
  try {
    const job = JSON.parse(jobJson) as Job;
    reseed(job.seed);
    const template = load(job.templateCode, "The template");
    const theme = job.themeCode === null ? null : load(job.themeCode, "The theme");
    const Template = component(template.EmailTemplate, "The template", "EmailTemplate");
    const Theme = theme && component(theme.EmailTheme, "The theme", "EmailTheme");
    const exported = subjectOf(template.subject, job.props);
    const message = React.createElement(Template, job.props);
    current.logos = logosOf((job.props.project ?? {}) as Record<string, unknown>);
    const themeProps = { unsubscribeLink: job.unsubscribeLink, projectLogos: current.logos, children: message };
    const framed = Theme ? React.createElement(Theme, themeProps) : message;
    clearDeclarations();
    const html = await renderHtml(framed);
    const subject = exported ?? declarations.subject;
    return JSON.stringify({ ok: true, html, subject, notificationCategory: declarations.notificationCategory });
  } catch (error) {
    return JSON.stringify({ ok: false, error: errorMessage(error) });
  }
}

(globalThis as Record<string, unknown>).__latchkey = { render, runTask };
