/**
 * The production-mode switch and what stands in its way. The list comes from
 * the server (the same checks it applies when the switch is turned on), read
 * again after every change of the project. Each problem's fix link names
 * the very setting to change (the toggle, or the domain's row) as its anchor.
 * Warnings (localhost) are listed too, but leave the switch free.
 */
import { Link } from "react-router";
import { useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Card } from "../../ui/page.tsx";
import { ProjectFieldToggle } from "../../ui/setting-toggle.tsx";
import { ErrorNotice, Loading } from "../../ui/states.tsx";

export function ProductionModeCard() {
  const project = useCurrentProject();
  const errors = useLoad(() => project.getProductionModeProblems(), [project]);
  const issues = errors.data?.errors ?? [];
  const warnings = errors.data?.warnings ?? [];
  const checking = errors.status !== "ready";
  const blocked = !project.isProductionMode && (checking || issues.length > 0);
  return (
    <Card
      title="Production mode"
      description="Turn it on before real people use your apps: Latchkey then refuses settings that are only safe while developing."
    >
      <ProjectFieldToggle
        id="production-mode"
        label="Production mode"
        hint={
          project.isProductionMode
            ? "On. Changes that would break a check below are refused (warnings are not)."
            : checking
              ? "Checking the project's settings…"
              : issues.length > 0
                ? `Can be turned on once the ${issues.length === 1 ? "problem" : `${issues.length} problems`} below ${issues.length === 1 ? "is" : "are"} fixed.`
                : warnings.length > 0
                  ? "Ready; the warnings below are worth fixing before real people use your apps."
                  : "Ready: nothing stands in the way."
        }
        checked={project.isProductionMode}
        disabled={blocked}
        update={(on) => ({ isProductionMode: on })}
      />
      <h3 className="checklist-title">Checklist</h3>
      {errors.status === "error" ? (
        <ErrorNotice error={errors.error} retry={errors.reload} />
      ) : errors.data === undefined ? (
        <Loading label="Checking…" />
      ) : issues.length + warnings.length === 0 ? (
        <p className="checklist-ok">Every check passes.</p>
      ) : (
        <ul className="checklist" aria-label="Production mode checklist">
          {[...issues.map((issue) => ({ issue, warning: false })), ...warnings.map((issue) => ({ issue, warning: true }))].map(
            ({ issue, warning }) => (
              <li key={issue.message}>
                <span className="checklist-message">
                  {warning ? <strong>Warning: </strong> : null}
                  {issue.message}
                </span>
                <Link className="checklist-fix" to={issue.relativeFixUrl}>
                  Fix it<span className="visually-hidden">: {issue.message}</span>
                </Link>
              </li>
            ),
          )}
        </ul>
      )}
    </Card>
  );
}
