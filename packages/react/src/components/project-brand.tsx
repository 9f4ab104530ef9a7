/**
 * Whose sign-in page this is, above its title: the project's full logo (its
 * mark with its wordmark) when it has one, else its mark beside its name,
 * else its name (project settings: logo URL, full logo URL).
 */
import { useProjectOnceLoaded } from "../use-project.ts";

export function ProjectBrand() {
  const project = useProjectOnceLoaded();
  if (!project) return null;
  if (project.logoFullUrl) {
    return (
      <div className="lk-brand">
        <img className="lk-brand-full" src={project.logoFullUrl} alt={project.displayName} />
      </div>
    );
  }
  return (
    <div className="lk-brand">
      {/* The name beside the mark says what it shows: an empty alt keeps screen readers from reading the name twice. */}
      {project.logoUrl ? <img className="lk-brand-mark" src={project.logoUrl} alt="" /> : null}
      <span className="lk-brand-name">{project.displayName}</span>
    </div>
  );
}
