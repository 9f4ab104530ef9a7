/**
 * The signed-in user's button: their picture or initials, opening a menu with
 * account settings and sign-out (keyboard: see use-menu.ts). Signed out, it
 * is a link to sign in.
 */
import { useStackApp } from "../provider.tsx";
import { useUser } from "../use-user.ts";
import { initials } from "./user-avatar.tsx";
import { useMenu } from "./use-menu.ts";

export function UserButton() {
  const app = useStackApp();
  const user = useUser();
  const menu = useMenu();

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

  const name = user.displayName ?? user.primaryEmail ?? "Account";

  return (
    <span className="lk-root lk-user-button">
      <button {...menu.buttonProps} className="lk-button lk-avatar">
        {/* The button's name holds what it shows (the initials), so a speech-input user can say what they see. */}
        {user.profileImageUrl ? <img src={user.profileImageUrl} alt="" /> : initials(name)}
        <span className="lk-visually-hidden"> (account menu)</span>
      </button>
      {menu.open ? (
        <div {...menu.menuProps} aria-label="Account" className="lk-menu">
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
