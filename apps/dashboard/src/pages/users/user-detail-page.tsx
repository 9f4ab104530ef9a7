/**
 * One user of the project: profile, metadata, contact channels, password and
 * two-factor, passkeys and OAuth accounts, teams and permissions, sessions,
 * API keys, products and items, impersonation and deletion. Each section loads and fails on its own.
 */
import type { ActiveSession, ServerUser } from "@latchkey/js";
import { Link, useParams } from "react-router";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad, type Load } from "../../lib/use-load.ts";
import { ApiKeysCard } from "../../ui/api-keys-card.tsx";
import { CustomerPaymentsCards } from "../../ui/customer-payments-cards.tsx";
import { MetadataCard } from "../../ui/metadata-card.tsx";
import { Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { ContactChannelsCard } from "./user-detail/contact-channels-card.tsx";
import { DeleteUserCard } from "./user-detail/delete-user.tsx";
import { useHostApp, type HostApp } from "../../lib/host-app.tsx";
import { ImpersonateButton } from "./user-detail/impersonate-button.tsx";
import { PermissionsCard } from "./user-detail/permissions-card.tsx";
import { ProfileCard } from "./user-detail/profile-card.tsx";
import { SecurityCard } from "./user-detail/security-card.tsx";
import { SessionsCard } from "./user-detail/sessions-card.tsx";
import { SignInMethodsCard } from "./user-detail/sign-in-methods-card.tsx";
import "./user-detail/user-detail.css";

const USER_METADATA_HINTS = {
  clientMetadata: "The user's own app can read and change it.",
  clientReadOnlyMetadata: "The user's app can read it; only servers change it.",
  serverMetadata: "Only your servers (and this dashboard) can read it.",
};

export default function UserDetailPage() {
  const { userId = "" } = useParams();
  // A fresh page per user: nothing of the previous user (title, Impersonate) stays while the next one loads.
  return <UserDetail key={userId} userId={userId} />;
}

function UserDetail({ userId }: { userId: string }) {
  const app = useAdminApp();
  const project = useCurrentProject();
  const user = useLoad(() => app.getUser(userId), [app, userId]);
  const host = useHostApp(project);
  const usersPath = `/projects/${project.id}/users`;
  const found = user.data ?? null;
  // Here rather than in the sessions card: an impersonation started from the header shows up in the list.
  const sessions = useLoad(() => (found ? found.getActiveSessions() : new Promise<never>(() => {})), [found]);
  return (
    <Page
      title={found ? (found.displayName ?? found.primaryEmail ?? "User") : "User"}
      actions={found ? <ImpersonateButton user={found} host={host} onStarted={sessions.reload} /> : null}
      description={
        <Link to={usersPath} className="back-link">
          ← All users
        </Link>
      }
    >
      {host.dialog}
      <Loaded load={user} label="Loading the user…">
        {(loaded) =>
          loaded === null ? (
            <Empty>
              <p>There is no user with the ID {userId} in this project. They may have been deleted.</p>
              <Link to={usersPath}>Back to the users</Link>
            </Empty>
          ) : (
            <UserSections user={loaded} host={host} sessions={sessions} usersPath={usersPath} onChanged={user.reload} />
          )
        }
      </Loaded>
    </Page>
  );
}

function UserSections({
  user,
  host,
  sessions,
  usersPath,
  onChanged,
}: {
  user: ServerUser;
  host: HostApp;
  sessions: Load<ActiveSession[]>;
  usersPath: string;
  onChanged: () => void;
}) {
  const app = useAdminApp();
  const project = useCurrentProject();
  return (
    <div className="user-detail">
      <ProfileCard user={user} onChanged={onChanged} />
      <MetadataCard
        owner={user}
        description="JSON your app stores with the user: any JSON value, null for none."
        hints={USER_METADATA_HINTS}
        save={async (field, value) => (await user.update({ [field]: value }), onChanged())}
      />
      <ContactChannelsCard app={app} user={user} host={host} onChanged={onChanged} />
      <SecurityCard user={user} onChanged={onChanged} />
      <SignInMethodsCard user={user} onChanged={onChanged} />
      <PermissionsCard app={app} user={user} />
      <SessionsCard user={user} sessions={sessions} />
      <ApiKeysCard owner={user} whose="user" enabled={project.config.allowUserApiKeys} />
      <CustomerPaymentsCards customer={{ type: "user", id: user.id }} />
      <DeleteUserCard user={user} usersPath={usersPath} />
    </div>
  );
}
