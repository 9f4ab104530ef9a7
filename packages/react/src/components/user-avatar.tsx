/** A user's picture, or their initials when they have none (default: the signed-in user; "?" for nobody). */
import { useUser } from "../use-user.ts";

export interface UserAvatarProps {
  /** Whose avatar (default: the signed-in user). */
  user?: { profileImageUrl?: string | null; displayName?: string | null; primaryEmail?: string | null } | null;
  /** Width and height in pixels (default 36). */
  size?: number;
  border?: boolean;
}

export function UserAvatar({ user, size = 36, border = false }: UserAvatarProps) {
  const signedIn = useUser();
  const shown = user === undefined ? signedIn : user;
  const name = shown?.displayName ?? shown?.primaryEmail ?? null;
  return (
    <span
      className={`lk-root lk-avatar${border ? " lk-avatar-border" : ""}`}
      style={{ width: size, height: size, fontSize: Math.round(size * 0.4) }}
      role="img"
      aria-label={name ?? "No user"}
    >
      {shown?.profileImageUrl ? <img src={shown.profileImageUrl} alt="" /> : initials(name ?? "?")}
    </span>
  );
}

/** Up to two letters: of the name's first two words, or of an e-mail's local part. */
export function initials(name: string): string {
  const words = name
    .replace(/@.*/, "")
    .split(/[\s._-]+/)
    .filter(Boolean);
  return ((words[0]?.[0] ?? "?") + (words[1]?.[0] ?? "")).toUpperCase();
}
