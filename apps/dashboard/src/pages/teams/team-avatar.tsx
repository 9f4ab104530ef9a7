/** The team's image, or its initial when it has none. */
export function TeamAvatar({ name, imageUrl, large = false }: { name: string; imageUrl: string | null; large?: boolean }) {
  const className = large ? "team-avatar team-avatar-large" : "team-avatar";
  if (imageUrl) return <img className={className} src={imageUrl} alt="" />;
  return (
    <span className={className} aria-hidden="true">
      {name.trim().charAt(0).toUpperCase() || "?"}
    </span>
  );
}
