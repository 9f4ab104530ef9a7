/**
 * Templates and themes written for the wire contract's other servers, which
 * import Subject, NotificationCategory, Props and ProjectLogo from
 * "@stackframe/emails" and declare their variables with arktype: they
 * compile and render unchanged, in previews and as a project's built-in
 * template (which gets its link under the name such templates read).
 */
import { DEFAULT_EMAIL_TEMPLATE_IDS } from "@latchkey/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { renderEmail } from "../src/domain/emails/render/render.ts";
import { createProject, PASSWORD, patchProjectConfig, uniqueEmail, type Project } from "./fixtures.ts";
import { expectKnownError, type TestServer } from "./harness.ts";
import { CALLBACK_URL, linkIn, ownSmtpConfig, type MailingServer, mailingWithProject } from "./mail-fixtures.ts";

/** As such servers ship their e-mail verification template, unchanged. */
const VERIFICATION = `import { type } from "arktype"
import { Button, Section, Hr } from "@react-email/components";
import { Subject, NotificationCategory, Props } from "@stackframe/emails";

export const variablesSchema = type({
  emailVerificationLink: "string"
})

export function EmailTemplate({ user, project, variables }: Props<typeof variablesSchema.infer>) {
  return (
    <>
      <Subject value={\`Verify your email at \${project.displayName}\`} />
      <NotificationCategory value="Transactional" />
      <div className="bg-white text-[#242424] font-sans text-base">
        <Section className="bg-white">
          <h3 className="text-black font-bold text-[20px] text-center">Verify your email at {project.displayName}</h3>
          <p className="text-[#474849] text-[14px] text-center">
            Hi{user.displayName ? (", " + user.displayName) : ''}! Please click on the following button to verify your email.
          </p>
          <Button href={variables.emailVerificationLink} target="_blank" className="text-black font-bold bg-[#f0f0f0]">
            Verify my email
          </Button>
          <Hr />
        </Section>
      </div>
    </>
  )
}

EmailTemplate.PreviewVariables = {
  emailVerificationLink: "<email verification link>"
} satisfies typeof variablesSchema.infer`;

/** A theme in the same style: Tailwind, and the project's logo when it has one. */
const THEME = `import { Html, Head, Tailwind, Body, Container } from '@react-email/components';
import { ThemeProps, ProjectLogo } from "@stackframe/emails";

export function EmailTheme({ children, unsubscribeLink, projectLogos }: ThemeProps) {
  return (
    <Html>
      <Head />
      <Tailwind>
        <Body className="bg-[#fafbfb] font-sans text-base">
          <Container className="bg-white p-[45px] rounded-lg">
            <ProjectLogo data={projectLogos} mode="light" />
            <ProjectLogo data={{ logoUrl: "https://cdn.example.com/logo.png" }} mode="dark" />
            {children}
          </Container>
          {unsubscribeLink && <a href={unsubscribeLink}>Unsubscribe</a>}
        </Body>
      </Tailwind>
    </Html>
  );
}

EmailTheme.PreviewProps = { unsubscribeLink: "https://example.com" } satisfies Partial<ThemeProps>`;

let mailing: MailingServer;
let server: TestServer;
let project: Project;

beforeAll(async () => {
  ({ mailing, server, project } = await mailingWithProject({ warm: true }));
  await patchProjectConfig(server, project, { email_config: ownSmtpConfig(mailing.smtp.port) });
});
afterAll(() => mailing?.close());

const render = (body: unknown) => server.request("/emails/render-email", { method: "POST", as: project.admin, body });

describe("the helpers module", () => {
  it("a template and theme written for it render unchanged: <Subject> is the subject, Tailwind classes become styles", async () => {
    const res = await render({
      template_tsx_source: VERIFICATION,
      theme_tsx_source: THEME,
      variables: { emailVerificationLink: "https://a.test/v" },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.subject).toBe("Verify your email at Test project");
    expect(res.body.html).toContain('href="https://a.test/v"');
    expect(res.body.html).toContain("Verify my email");
    expect(res.body.html).toContain("background-color:rgb(250,251,251)");
    expect(res.body.html).toContain('src="https://cdn.example.com/logo.png"');
  });

  it("a theme gets the project's logos as projectLogos: <ProjectLogo> shows the full logo, else the small one", async () => {
    const logoProject = await createProject(server);
    const theme = (logo: string) => `import { ProjectLogo } from "@stackframe/emails";
export function EmailTheme({ children, projectLogos }) {
  return <div>{${logo}}{children}</div>;
}`;
    const preview = async (logo: string) => {
      const res = await server.request("/emails/render-email", {
        method: "POST",
        as: logoProject.admin,
        body: { template_tsx_source: "export function EmailTemplate() { return <p>Hi</p>; }", theme_tsx_source: theme(logo) },
      });
      expect(res.status, res.text).toBe(200);
      return [...String(res.body.html).matchAll(/<img[^>]*src="([^"]*)"/g)].map((m) => m[1]);
    };
    // No logos yet: nothing.
    expect(await preview(`<ProjectLogo data={projectLogos} mode="light" />`)).toEqual([]);

    const patch = (body: object) => server.request("/internal/projects/current", { method: "PATCH", as: logoProject.admin, body });
    expect((await patch({ logo_url: "https://cdn.test/small.png" })).status).toBe(200);
    expect(await preview(`<ProjectLogo data={projectLogos} mode="light" />`)).toEqual(["https://cdn.test/small.png"]);
    expect(
      (await patch({ logo_full_url: "https://cdn.test/full.png", logo_full_dark_mode_url: "https://cdn.test/full-dark.png" })).status,
    ).toBe(200);
    expect(await preview(`<ProjectLogo data={projectLogos} mode="light" />`)).toEqual(["https://cdn.test/full.png"]);
    expect(await preview(`<ProjectLogo data={projectLogos} mode="dark" />`)).toEqual(["https://cdn.test/full-dark.png"]);
    // Without data, the project's own logos.
    expect(await preview(`<ProjectLogo />`)).toEqual(["https://cdn.test/full.png"]);
  });

  it("reports the template's notification category with the render, and a subject export wins over <Subject>", async () => {
    const both = `import { Subject, NotificationCategory } from "@stackframe/emails";
export const subject = "From the export";
export function EmailTemplate() {
  return <><Subject value="From the component" /><NotificationCategory value="Marketing" /><p>Body</p></>;
}`;
    const rendered = await renderEmail({
      templateSource: both,
      themeSource: null,
      props: { user: null, project: { displayName: "P" }, variables: {} },
      unsubscribeLink: null,
    });
    expect(rendered.subject).toBe("From the export");
    expect(rendered.notificationCategory).toBe("Marketing");
    expect(rendered.html).toBe("<p>Body</p>");
  });

  it("a <Subject> whose value is not a string, or an import that does not exist → EMAIL_RENDERING_ERROR", async () => {
    const numeric = `import { Subject } from "@stackframe/emails";
export function EmailTemplate() { return <><Subject value={42} /><p>x</p></>; }`;
    const res = await render({ template_tsx_source: numeric, theme_id: false });
    expectKnownError(res, "EMAIL_RENDERING_ERROR", 400);
    expect(res.body.details.error).toContain('The "value" of <Subject> must be a string');
    const other = await render({
      template_tsx_source: `import { Secret } from "@stackframe/stack";\nexport function EmailTemplate() { return <p>{Secret}</p>; }`,
    });
    expectKnownError(other, "EMAIL_RENDERING_ERROR", 400);
    expect(other.body.details.error).toContain('"@stackframe/stack" cannot be imported');
  });

  it("as a project's built-in verification template, it gets its link and a user, and the mail verifies", async () => {
    const path = `/internal/email-templates/${DEFAULT_EMAIL_TEMPLATE_IDS.email_verification}`;
    const saved = await server.request(path, { method: "PATCH", as: project.admin, body: { tsx_source: VERIFICATION } });
    expect(saved.status, saved.text).toBe(200);
    const email = uniqueEmail("compatible");
    const signUp = await server.request("/auth/password/sign-up", {
      method: "POST",
      as: project.client,
      body: { email, password: PASSWORD, verification_callback_url: CALLBACK_URL },
    });
    expect(signUp.status, signUp.text).toBe(200);
    const mail = await mailing.mailTo(email);
    expect(mail.subject).toBe("Verify your email at Test project");
    expect(mail.text).toContain("Verify my email");
    const { code } = linkIn(mail);
    const verified = await server.request("/contact-channels/verify", { method: "POST", as: project.client, body: { code } });
    expect(verified.status, verified.text).toBe(200);
  });
});
