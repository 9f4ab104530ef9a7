/**
 * The code a developer pastes to connect an app to their project, filled
 * with the project's id, this server's URL and (right after creation) the
 * publishable client key. Each guide is a list of files, copied one by one.
 */

export interface SnippetFile {
  /** Where the text goes: a file path, or "Terminal". */
  name: string;
  code: string;
}

export interface Guide {
  id: "react" | "nextjs" | "js" | "curl";
  label: string;
  intro: string;
  files: SnippetFile[];
}

export interface SnippetValues {
  baseUrl: string;
  projectId: string;
  /** The full key, or a placeholder naming where to find one. */
  publishableClientKey: string;
}

export const KEY_PLACEHOLDER = "<your publishable client key>";

/**
 * This server serves the SDK's packages (packages/server/src/http/sdk-packages.ts): an app installs them from the
 * server it talks to. @latchkey/react names @latchkey/js at the same address, so npm installs the pair as one.
 */
export function sdkInstallCommand(baseUrl: string, packages: ("js" | "react")[]): string {
  return `npm install ${packages.map((name) => `${baseUrl}/sdk/latchkey-${name}.tgz`).join(" ")}`;
}

export function guides({ baseUrl, projectId, publishableClientKey: key }: SnippetValues): Guide[] {
  return [
    {
      id: "react",
      label: "React (Vite)",
      intro:
        "In a Vite + React app (npm create vite@latest my-app -- --template react-ts): install the SDK from this server, wrap your app in StackProvider, serve Latchkey's pages under /handler/, and read the user with useUser().",
      files: [
        { name: "Terminal", code: sdkInstallCommand(baseUrl, ["js", "react"]) },
        {
          name: ".env.local",
          code: `VITE_LATCHKEY_API_URL=${baseUrl}\nVITE_LATCHKEY_PROJECT_ID=${projectId}\nVITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY=${key}`,
        },
        {
          name: "src/latchkey.ts",
          code: `import { StackClientApp } from "@latchkey/js";

export const latchkey = new StackClientApp({
  baseUrl: import.meta.env.VITE_LATCHKEY_API_URL,
  projectId: import.meta.env.VITE_LATCHKEY_PROJECT_ID,
  publishableClientKey: import.meta.env.VITE_LATCHKEY_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});`,
        },
        {
          name: "src/main.tsx",
          code: `import { StackHandler, StackProvider, useUser } from "@latchkey/react";
import { StrictMode, Suspense } from "react";
import { createRoot } from "react-dom/client";
import { latchkey } from "./latchkey.ts";

function Home() {
  // Visitors who are not signed in are sent to the sign-in page, and come back here after.
  const user = useUser({ or: "redirect" });
  return <p>Signed in as {user.primaryEmail}</p>;
}

function App() {
  // Sign-in, sign-up, password reset and account settings live under /handler/.
  return window.location.pathname.startsWith("/handler/") ? <StackHandler /> : <Home />;
}

createRoot(document.getElementById("root")!).render(
  <StrictMode>
    <StackProvider app={latchkey}>
      <Suspense fallback={<p>Loading…</p>}>
        <App />
      </Suspense>
    </StackProvider>
  </StrictMode>,
);`,
        },
      ],
    },
    {
      id: "nextjs",
      label: "Next.js",
      intro: "Latchkey runs in the browser: provide the app from a client component and mount its pages on app/handler/.",
      files: [
        { name: "Terminal", code: sdkInstallCommand(baseUrl, ["js", "react"]) },
        {
          name: ".env.local",
          code: `NEXT_PUBLIC_LATCHKEY_API_URL=${baseUrl}\nNEXT_PUBLIC_LATCHKEY_PROJECT_ID=${projectId}\nNEXT_PUBLIC_LATCHKEY_PUBLISHABLE_CLIENT_KEY=${key}`,
        },
        {
          name: "app/latchkey-provider.tsx",
          code: `"use client";
import { StackClientApp } from "@latchkey/js";
import { StackProvider } from "@latchkey/react";
import type { ReactNode } from "react";

const latchkey = new StackClientApp({
  baseUrl: process.env.NEXT_PUBLIC_LATCHKEY_API_URL,
  projectId: process.env.NEXT_PUBLIC_LATCHKEY_PROJECT_ID!,
  publishableClientKey: process.env.NEXT_PUBLIC_LATCHKEY_PUBLISHABLE_CLIENT_KEY,
  tokenStore: "cookie",
});

export function LatchkeyProvider({ children }: { children: ReactNode }) {
  return <StackProvider app={latchkey}>{children}</StackProvider>;
}`,
        },
        {
          name: "app/layout.tsx",
          code: `import type { ReactNode } from "react";
import { LatchkeyProvider } from "./latchkey-provider";

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body>
        <LatchkeyProvider>{children}</LatchkeyProvider>
      </body>
    </html>
  );
}`,
        },
        {
          name: "app/handler/[...path]/page.tsx",
          code: `"use client";
import { StackHandler } from "@latchkey/react";
import { usePathname } from "next/navigation";

export default function Handler() {
  return <StackHandler pathname={usePathname()} />;
}`,
        },
      ],
    },
    {
      id: "js",
      label: "JavaScript",
      intro: "Without a framework: the StackClientApp of @latchkey/js signs users up and in, and keeps their session in cookies.",
      files: [
        { name: "Terminal", code: sdkInstallCommand(baseUrl, ["js"]) },
        {
          name: "latchkey.js",
          code: `import { StackClientApp } from "@latchkey/js";

export const latchkey = new StackClientApp({
  baseUrl: "${baseUrl}",
  projectId: "${projectId}",
  publishableClientKey: "${key}",
  tokenStore: "cookie",
});

export async function signIn(email, password) {
  const result = await latchkey.signInWithCredential({ email, password, noRedirect: true });
  if (result.status === "error") throw result.error;
  const user = await latchkey.getUser({ or: "throw" });
  console.log(\`Signed in as \${user.primaryEmail}\`);
}`,
        },
      ],
    },
    {
      id: "curl",
      label: "curl",
      intro: "The HTTP API directly: sign a user up, then read them back with the access token the sign-up answered.",
      files: [
        {
          name: "Sign up a user",
          code: `curl -X POST "${baseUrl}/api/v1/auth/password/sign-up" \\
  -H "content-type: application/json" \\
  -H "x-stack-access-type: client" \\
  -H "x-stack-project-id: ${projectId}" \\
  -H "x-stack-publishable-client-key: ${key}" \\
  -d '{"email": "ada@example.com", "password": "a-long-passphrase"}'`,
        },
        {
          name: "Read the signed-in user",
          code: `curl "${baseUrl}/api/v1/users/me" \\
  -H "x-stack-access-type: client" \\
  -H "x-stack-project-id: ${projectId}" \\
  -H "x-stack-publishable-client-key: ${key}" \\
  -H "x-stack-access-token: <access_token from the sign-up>"`,
        },
      ],
    },
  ];
}
