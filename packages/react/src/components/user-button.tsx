/**
 * The signed-in user's button: their picture or initials, opening a menu with
 * account settings and sign-out. Signed out, it is a link to sign in.
 * Keyboard: Enter/Space/ArrowDown open the menu; arrows, Home and End move;
 * Escape closes (back to the button); Tab closes and moves on.
 */
import { useEffect, useId, useRef, useState, type KeyboardEvent } from "react";
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";

export function UserButton() {
  const app = useStackApp();
  const user = useUser();
  const [open, setOpen] = useState(false);
  const menuId = useId();
  const buttonRef = useRef<HTMLButtonElement>(null);
  const menuRef = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    menuRef.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onPointer = (event: PointerEvent) => {
      if (!menuRef.current?.contains(event.target as Node) && !buttonRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener("pointerdown", onPointer);
    return () => document.removeEventListener("pointerdown", onPointer);
  }, [open]);

  if (!user) {
    return (
      <span className="lk-root">
        <a
          className="lk-link"
          href={app.urls.signIn}
          onClick={(event) => {
            // Through the app, so the sign-in page brings the user back here.
            event.preventDefault();
            void app.redirectToSignIn();
          }}
        >
          Sign in
        </a>
      </span>
    );
  }

  const close = () => {
    setOpen(false);
    buttonRef.current?.focus();
  };
  const onMenuKey = (event: KeyboardEvent) => {
    const items = Array.from(menuRef.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const index = items.indexOf(document.activeElement as HTMLElement);
    if (event.key === "Tab") {
      setOpen(false);
      return;
    }
    if (event.key === "Escape") close();
    else if (event.key === "ArrowDown") items[(index + 1) % items.length]?.focus();
    else if (event.key === "ArrowUp") items[(index - 1 + items.length) % items.length]?.focus();
    else if (event.key === "Home") items[0]?.focus();
    else if (event.key === "End") items[items.length - 1]?.focus();
    else return;
    event.preventDefault();
  };
  const name = user.displayName ?? user.primaryEmail ?? "Account";

  return (
    <span className="lk-root lk-user-button">
      <button
        ref={buttonRef}
        type="button"
        className="lk-button lk-avatar"
        aria-label="Account menu"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => setOpen((value) => !value)}
        onKeyDown={(event) => {
          if (event.key === "ArrowDown") {
            event.preventDefault();
            setOpen(true);
          }
        }}
      >
        {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : initials(name)}
      </button>
      {open ? (
        <div ref={menuRef} id={menuId} role="menu" aria-label="Account" className="lk-menu" onKeyDown={onMenuKey}>
          <div className="lk-menu-header">
            <strong>{user.displayName ?? "Signed in"}</strong>
            {user.primaryEmail ? <div className="lk-muted">{user.primaryEmail}</div> : null}
          </div>
          <button type="button" role="menuitem" className="lk-menu-item" onClick={() => void app.redirectToAccountSettings()}>
            Account settings
          </button>
          <button type="button" role="menuitem" className="lk-menu-item" onClick={() => void user.signOut()}>
            Sign out
          </button>
        </div>
      ) : null}
    </span>
  );
}

function initials(name: string): string {
  const words = name
    .replace(/@.*/, "")
    .split(/[\s._-]+/)
    .filter(Boolean);
  return ((words[0]?.[0] ?? "?") + (words[1]?.[0] ?? "")).toUpperCase();
}
