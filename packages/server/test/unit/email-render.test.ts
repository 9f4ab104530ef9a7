/**
 * The sandboxed e-mail renderer: stored TSX (untrusted, written by project
 * admins) in, HTML, text and subject out; every failure of the TSX an
 * EMAIL_RENDERING_ERROR, and the renderer still working afterwards.
 */
import { KnownErrors } from "@latchkey/shared";
import { beforeAll, describe, expect, it } from "vitest";
import { RENDER_CPU_MILLIS } from "../../src/domain/emails/render/limits.ts";
import { renderEmail } from "../../src/domain/emails/render/render.ts";
import type { RenderInput, TemplateProps } from "../../src/domain/emails/render/types.ts";

const THEME = `import { Body, Head, Html, Link, Text } from "@react-email/components";
export function EmailTheme({ children, unsubscribeLink }) {
  return (
    <Html lang="en">
      <Head />
      <Body>
        <div id="theme-frame">{children}</div>
        {unsubscribeLink ? <Text>Tired of us? <Link href={unsubscribeLink}>Unsubscribe</Link></Text> : null}
      </Body>
    </Html>
  );
}`;

const GREETING = `import * as React from "react";
import { Button, Img, Text } from "@react-email/components";
export const subject = "Hello there";
export function EmailTemplate({ user, project, variables }) {
  return (
    <>
      <Text>Hi {user ? user.displayName : "stranger"} ({user?.primaryEmail}), welcome to {project.displayName}.</Text>
      <Text>Your code is {variables.code}.</Text>
      <Img src="https://cdn.example.com/logo.png" alt="Logo" />
      <Button href={variables.link}>Open the app</Button>
    </>
  );
}`;

const PROPS: TemplateProps = {
  user: { displayName: "Ada Lovelace", primaryEmail: "ada@example.com" },
  project: { displayName: "Analytical Engines" },
  variables: { code: "731-204", link: "https://app.example.com/open?x=1" },
};

function input(templateSource: string, overrides: Partial<RenderInput> = {}): RenderInput {
  return { templateSource, themeSource: null, props: PROPS, unsubscribeLink: null, ...overrides };
}

const template = (body: string, imports = "") => `${imports}\nexport function EmailTemplate(props) {\n${body}\n}`;

/** Renders and expects EMAIL_RENDERING_ERROR; returns its message (details.error). */
async function renderingError(renderInput: RenderInput): Promise<string> {
  const error = await renderEmail(renderInput).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(KnownErrors.EmailRenderingError);
  const known = error as InstanceType<typeof KnownErrors.EmailRenderingError>;
  expect(known.code).toBe("EMAIL_RENDERING_ERROR");
  return String(known.details?.error);
}

/** A render that must work, right after a failure. */
async function stillWorks() {
  const { html } = await renderEmail(input(template("return <p>still here</p>;")));
  expect(html).toBe("<p>still here</p>");
}

// The first render in a process loads the sandbox's runtime (a few seconds on a busy machine): keep it out of the timed tests.
beforeAll(async () => {
  await renderEmail(input(template("return <p>warm</p>;")));
}, 60_000);

describe("rendering", () => {
  it("frames the template in its theme, as a full HTML document", async () => {
    const { html } = await renderEmail(
      input(GREETING, { themeSource: THEME, unsubscribeLink: "https://app.example.com/unsubscribe?t=abc" }),
    );
    expect(html.startsWith("<!DOCTYPE html PUBLIC")).toBe(true);
    expect(html).toMatch(/<html [^>]*lang="en"[^>]*>.*<\/html>$/s);
    expect(html).not.toContain('rel="preload"');
    const frame = html.indexOf('<div id="theme-frame">');
    expect(frame).toBeGreaterThan(html.indexOf("<body"));
    expect(html.indexOf("welcome to")).toBeGreaterThan(frame);
    expect(html.indexOf("welcome to")).toBeLessThan(html.indexOf("</div>", html.indexOf("Open the app")));
    expect(html).toContain('href="https://app.example.com/unsubscribe?t=abc"');
  });

  it("leaves the unsubscribe link out when there is none", async () => {
    const { html } = await renderEmail(input(GREETING, { themeSource: THEME, unsubscribeLink: null }));
    expect(html).toContain('<div id="theme-frame">');
    expect(html).not.toContain("Unsubscribe");
  });

  it("gives the template its user, project and variables", async () => {
    const { html } = await renderEmail(input(GREETING));
    expect(html).toMatch(/Hi <!-- -->Ada Lovelace<!-- --> \(<!-- -->ada@example.com<!-- -->\), welcome to <!-- -->Analytical Engines/);
    expect(html).toContain("Your code is <!-- -->731-204");
    expect(html).toContain('href="https://app.example.com/open?x=1"');
    const anonymous = await renderEmail(input(GREETING, { props: { ...PROPS, user: null } }));
    expect(anonymous.html).toContain("Hi <!-- -->stranger");
  });

  it("renders without a theme when themeSource is null", async () => {
    const { html } = await renderEmail(input(GREETING));
    expect(html).not.toContain("theme-frame");
    expect(html).not.toContain("<html");
    expect(html.startsWith("<p")).toBe(true);
    expect(html).toContain('<img alt="Logo" src="https://cdn.example.com/logo.png"');
  });

  it("takes the subject from a string, from a function of the props, or gives null", async () => {
    expect((await renderEmail(input(GREETING))).subject).toBe("Hello there");
    const fromProps = template(
      "return <p>hi</p>;",
      "export function subject({ project, variables }) { return `Code ${variables.code} for ${project.displayName}`; }",
    );
    expect((await renderEmail(input(fromProps))).subject).toBe("Code 731-204 for Analytical Engines");
    expect((await renderEmail(input(template("return <p>hi</p>;")))).subject).toBeNull();
  });

  it("derives a text version: links as text: url, no images, nothing of the markup", async () => {
    const { text } = await renderEmail(input(GREETING, { themeSource: THEME, unsubscribeLink: "https://app.example.com/unsubscribe" }));
    expect(text).toContain("Hi Ada Lovelace (ada@example.com), welcome to Analytical Engines.");
    expect(text).toContain("Open the app: https://app.example.com/open?x=1");
    expect(text).toContain("Tired of us? Unsubscribe: https://app.example.com/unsubscribe");
    expect(text).not.toMatch(/logo\.png|<|mso/);
  });

  it("renders the React Email components that need more than React: Tailwind, Markdown, CodeBlock", async () => {
    const source = template(
      `return (
        <Tailwind>
          <Html><Head /><Body>
            <Text className="text-red-600 font-bold">Styled</Text>
            <Markdown>{"**bold** and [a link](https://example.com/md)"}</Markdown>
            <CodeBlock code="const answer = 42;" language="javascript" theme={dracula} />
          </Body></Html>
        </Tailwind>
      );`,
      'import { Body, CodeBlock, Head, Html, Markdown, Tailwind, Text, dracula } from "@react-email/components";',
    );
    const { html, text } = await renderEmail(input(source));
    expect(html).toMatch(/<p style="[^"]*font-weight:700[^"]*"[^>]*>Styled<\/p>/);
    expect(html).toContain('<strong style="font-weight:bold">bold</strong>');
    expect(html).toContain("answer");
    expect(text).toContain("a link: https://example.com/md");
  });

  it("keeps text outside the Basic Multilingual Plane and HTML escaping intact", async () => {
    const { html, text } = await renderEmail(input(template('return <p title={"<&>"}>Grüße 😀 {"<script>"}</p>;')));
    expect(html).toBe('<p title="&lt;&amp;&gt;">Grüße 😀 <!-- -->&lt;script&gt;</p>');
    expect(text).toBe("Grüße 😀 <script>");
  });
});

describe("failures", () => {
  it("a syntax error names the line", async () => {
    expect(await renderingError(input("export function EmailTemplate() {\n  return <p>unclosed;\n}"))).toMatch(
      /^The template does not compile: .*line \d+/,
    );
    expect(await renderingError(input(GREETING, { themeSource: "export function EmailTheme( {" }))).toMatch(/^The theme does not compile/);
    await stillWorks();
  });

  it("a template that throws", async () => {
    expect(await renderingError(input(template('throw new Error("no such order");')))).toBe("Error: no such order");
    expect(await renderingError(input(template("throw 42;")))).toBe("it threw a number");
    await stillWorks();
  });

  it("an endless loop stops at the time limit, well under 10 s", async () => {
    const started = Date.now();
    expect(await renderingError(input(template("while (true) {}")))).toBe(
      `it took longer than ${RENDER_CPU_MILLIS / 1000} s to render (an endless loop?)`,
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    const inSubject = template("return <p/>;", "export const subject = () => { for (;;) {} };");
    expect(await renderingError(input(inSubject))).toMatch(/took longer than/);
    await stillWorks();
  });

  it("a built-in that never checks the time limit: the worker is replaced", async () => {
    // QuickJS's JSON.stringify of deeply nested arrays is quadratic and uninterruptible.
    const started = Date.now();
    const nested = template(
      "const top = []; let at = top; for (let i = 0; i < 100000; i++) { const next = []; at.push(next); at = next; } JSON.stringify(top); return <p/>;",
    );
    expect(await renderingError(input(nested))).toMatch(/took longer than/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await stillWorks();
  }, 60_000);

  it("HTML too large, or nested so deep that parsing it for the text version would take the server's time", async () => {
    // Inner HTML is copied as is (no escaping), and "€" is 3 bytes of UTF-8 in one character: a third of the
    // characters make just over 1 MiB, so even a slow, busy machine makes it well within the time limit.
    const large = template('return <div dangerouslySetInnerHTML={{ __html: "€".repeat(Math.ceil((1024 * 1024 + 1) / 3)) }} />;');
    expect(await renderingError(input(large))).toBe("it rendered more than 1 MiB of HTML");
    // htmlparser2 is quadratic on this; it runs in the worker, which is stopped and replaced.
    const started = Date.now();
    const nested = template('return <div dangerouslySetInnerHTML={{ __html: "<div>".repeat(150000) }} />;');
    expect(await renderingError(input(nested))).toMatch(/took longer than|too deeply/);
    expect(Date.now() - started).toBeLessThan(10_000);
    await stillWorks();
  }, 60_000);

  it("a huge allocation stops at the memory limit", async () => {
    expect(await renderingError(input(template("const chunks = []; for (;;) chunks.push(new ArrayBuffer(1 << 20));")))).toMatch(
      /more than 64 MiB/,
    );
    expect(await renderingError(input(template("const cells = []; for (;;) cells.push({ n: cells.length });")))).toMatch(
      /more than 64 MiB/,
    );
    expect(await renderingError(input(template("return <p>{new Array(5e7).fill(1.5).length}</p>;")))).toMatch(/more than 64 MiB/);
    await stillWorks();
  });

  it("deep recursion is a stack overflow, not a crash", async () => {
    expect(await renderingError(input(template("const f = (n) => f(n + 1) + 1; return <p>{f(0)}</p>;")))).toMatch(/stack overflow/);
    expect(await renderingError(input(template("new Function('return ' + '['.repeat(100000))(); return <p/>;")))).toMatch(/stack overflow/);
    await stillWorks();
  });

  it("imports other than react, @react-email/components, arktype and the contract's helpers module", async () => {
    expect(
      await renderingError(input(template("return <p>{fs.readFileSync('/etc/passwd', 'utf8')}</p>;", 'import fs from "fs";'))),
    ).toMatch(/^The template does not compile: "fs" cannot be imported/);
    expect(await renderingError(input(template("return <p>{String(x)}</p>;", 'import x from "./secrets";')))).toMatch(
      /"\.\/secrets" cannot be imported/,
    );
    expect(await renderingError(input(template("return <p>{String(require('child_process'))}</p>;")))).toMatch(
      /"child_process" cannot be imported/,
    );
    expect(await renderingError(input(template("import('node:fs'); return <p/>;")))).toMatch(/"node:fs" cannot be imported/);
    // Another package of the helpers module's publisher is not the helpers module.
    expect(await renderingError(input(template("return <p>{String(x)}</p>;", 'import x from "@stackframe/stack";')))).toMatch(
      /"@stackframe\/stack" cannot be imported/,
    );
    // Hidden from the compiler: the sandbox's require answers only the modules it provides.
    expect(await renderingError(input(template("const r = require; return <p>{String(r('f' + 's'))}</p>;")))).toBe(
      'The template imports "fs", which is not available',
    );
    await stillWorks();
  });

  it("a missing EmailTemplate or EmailTheme export", async () => {
    expect(await renderingError(input("export function Template() { return <p/>; }"))).toBe(
      "The template does not export a function named EmailTemplate",
    );
    expect(await renderingError(input(GREETING, { themeSource: "export const theme = 1;" }))).toBe(
      "The theme does not export a function named EmailTheme",
    );
    await stillWorks();
  });

  it("a component that returns something other than an element, or an invalid child", async () => {
    expect(await renderingError(input(template('return "just text";')))).toBe("EmailTemplate returned a string instead of a React element");
    expect(await renderingError(input(template("return null;")))).toBe("EmailTemplate returned null instead of a React element");
    expect(await renderingError(input(template("return <p>{{ a: 1 }}</p>;")))).toBe(
      "Error: Objects are not valid as a React child (found: object with keys {a})",
    );
    const missing = template("return <Nope />;", 'import { Nope } from "@react-email/components";');
    expect(await renderingError(input(missing))).toMatch(/Element type is invalid.*got undefined/);
    await stillWorks();
  });

  it("a subject that is not a string", async () => {
    expect(await renderingError(input(template("return <p/>;", "export const subject = 5;")))).toMatch(/^subject must be a string/);
    expect(await renderingError(input(template("return <p/>;", "export const subject = () => null;")))).toMatch(/gave null$/);
  });

  it("a render that waits forever", async () => {
    const source = template("React.use(new Promise(() => {})); return <p/>;", 'import * as React from "react";');
    expect(await renderingError(input(source))).toMatch(/never finished rendering/);
    await stillWorks();
  });

  it("no host object is reachable: process, require, fetch, timers, console", async () => {
    expect(await renderingError(input(template("return <p>{process.env.HOME}</p>;")))).toBe("ReferenceError: 'process' is not defined");
    expect(await renderingError(input(template("fetch('https://example.com'); return <p/>;")))).toBe(
      "ReferenceError: 'fetch' is not defined",
    );
    const probe = template(
      `const g = new Function("return this")();
       return <p>{[typeof g.process, typeof g.require, typeof g.fetch, typeof g.setTimeout, typeof g.console, typeof g.Buffer, typeof g.WebAssembly].join(",")}</p>;`,
    );
    const { html } = await renderEmail(input(probe));
    expect(html).toBe("<p>undefined,undefined,undefined,undefined,undefined,undefined,undefined</p>");
  });
});

describe("isolation", () => {
  const SETTER = template(
    'globalThis.leaked = "secret of project A"; Array.prototype.poisoned = true; Math.max = () => 0; return <p>set</p>;',
  );
  const READER = template("return <p>{String(globalThis.leaked)} {String([].poisoned)} {Math.max(1, 2)}</p>;");
  const UNTOUCHED = "<p>undefined<!-- --> <!-- -->undefined<!-- --> <!-- -->2</p>";

  it("renders in parallel do not share state", async () => {
    const results = await Promise.all([SETTER, READER, SETTER, READER].map((source) => renderEmail(input(source))));
    expect(results.map((r) => r.html)).toEqual(["<p>set</p>", UNTOUCHED, "<p>set</p>", UNTOUCHED]);
  });

  it("nor do renders one after the other, nor a render after one that timed out midway", async () => {
    await renderEmail(input(SETTER));
    expect((await renderEmail(input(READER))).html).toBe(UNTOUCHED);
    await renderingError(input(template('globalThis.leaked = "half-done"; while (true) {}')));
    expect((await renderEmail(input(READER))).html).toBe(UNTOUCHED);
  });

  it("each render gets its own Math.random", async () => {
    const source = template("return <p>{Math.random()}</p>;");
    const [a, b] = await Promise.all([renderEmail(input(source)), renderEmail(input(source))]);
    expect(a.html).not.toBe(b.html);
  });
});
