/** How users sign in, as a donut beside its legend; the legend (names, counts, shares) is the text screen readers get. */
import type { MetricsLoginMethod } from "@latchkey/js";
import { oauthProviderName } from "@latchkey/react";
import { lazy, Suspense } from "react";
import { formatCount } from "./format.ts";

const DonutDrawing = lazy(() => import("./charts.tsx").then((m) => ({ default: m.DonutDrawing })));

const METHOD_NAMES: Record<string, string> = {
  password: "Password",
  otp: "Magic link or code",
  passkey: "Passkey",
  other: "Other",
};

// Mid-tone hues that stay readable on the light and the dark surface; the theme's own colour leads.
const COLORS = ["var(--primary)", "#0ea5e9", "#f59e0b", "#10b981", "#ec4899", "#8b5cf6", "#64748b"];

export const methodName = (method: string) => METHOD_NAMES[method] ?? oauthProviderName(method);

export function SignInMethods({ methods }: { methods: MetricsLoginMethod[] }) {
  const total = methods.reduce((sum, m) => sum + m.count, 0);
  const data = methods.map((m, i) => ({ name: methodName(m.method), count: m.count, color: COLORS[i % COLORS.length]! }));
  const share = new Intl.NumberFormat(undefined, { style: "percent", maximumFractionDigits: 0 });
  return (
    <div className="sign-in-methods">
      <div className="sign-in-methods-donut" aria-hidden="true">
        <Suspense fallback={null}>
          <DonutDrawing data={data} />
        </Suspense>
      </div>
      <ul className="legend" aria-label="Sign-in methods">
        {data.map((d) => (
          <li key={d.name}>
            <span className="legend-swatch" style={{ background: d.color }} aria-hidden="true" />
            <span className="legend-name">{d.name}</span>
            <span className="legend-count">
              {formatCount(d.count)} <span className="muted">({share.format(d.count / total)})</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
