/**
 * The project's first page: how many users it has, sign-ups and active
 * users over 31 days, where users are, who came or came back lately and how
 * they sign in. Anonymous users count only when the owner asks (kept in the
 * URL, so a reload or a shared link keeps the choice).
 */
import type { ProjectMetrics } from "@latchkey/js";
import { Link, useSearchParams } from "react-router";
import { useAdminApp, useCurrentProject } from "../../lib/owned-projects.tsx";
import { useLoad } from "../../lib/use-load.ts";
import { Toggle } from "../../ui/field.tsx";
import { Card, Page } from "../../ui/page.tsx";
import { Empty, Loaded } from "../../ui/states.tsx";
import { BarList } from "./bar-list.tsx";
import { DailyChart } from "./daily-chart.tsx";
import { countryName, formatCount } from "./format.ts";
import { RecentUsers } from "./recent-users.tsx";
import { SignInMethods } from "./sign-in-methods.tsx";
import "./overview.css";

/** How many of each recent list the page shows. */
const RECENT = 6;
const TOP_COUNTRIES = 10;

export default function OverviewPage() {
  const app = useAdminApp();
  const project = useCurrentProject();
  const [search, setSearch] = useSearchParams();
  const includeAnonymous = search.get("anonymous") === "include";
  const metrics = useLoad(() => app.getMetrics({ includeAnonymous }), [app, includeAnonymous]);
  return (
    <Page
      title="Overview"
      description={`Who uses ${project.displayName}, and how they sign in. Days are UTC days.`}
      actions={
        <Toggle
          label="Include anonymous users"
          checked={includeAnonymous}
          onChange={(on) =>
            setSearch(
              (params) => {
                if (on) params.set("anonymous", "include");
                else params.delete("anonymous");
                return params;
              },
              { replace: true },
            )
          }
        />
      }
    >
      <Loaded load={metrics} label="Loading the overview…">
        {(data) =>
          data.totalUsers === 0 && data.authOverview.anonymousUsers === 0 ? (
            <NoUsersYet projectId={project.id} />
          ) : (
            <Overview data={data} projectId={project.id} includeAnonymous={includeAnonymous} />
          )
        }
      </Loaded>
    </Page>
  );
}

function Overview({ data, projectId, includeAnonymous }: { data: ProjectMetrics; projectId: string; includeAnonymous: boolean }) {
  const auth = data.authOverview;
  const signUps = data.dailyUsers.reduce((sum, day) => sum + day.activity, 0);
  const today = (series: ProjectMetrics["dailyUsers"]) => series.at(-1)?.activity ?? 0;
  const countries = Object.entries(data.usersByCountry)
    .sort(([a, x], [b, y]) => y - x || a.localeCompare(b))
    .slice(0, TOP_COUNTRIES)
    .map(([code, count]) => ({ key: code, label: countryName(code), count }));
  return (
    <div className="overview">
      <dl className="stat-tiles">
        <Stat label="Users" value={data.totalUsers} note={includeAnonymous ? "Anonymous included" : undefined} primary />
        <Stat label="Verified e-mail" value={auth.verifiedUsers} />
        <Stat label="Unverified e-mail" value={auth.unverifiedUsers} />
        <Stat label="Anonymous" value={auth.anonymousUsers} />
        <Stat label="Active in the last 30 days" value={auth.mau} />
      </dl>

      <div className="overview-grid">
        <Card>
          <DailyChart
            kind="bar"
            title="Sign-ups"
            unit="Sign-ups"
            data={data.dailyUsers}
            summary={`${formatCount(signUps)} in the last 31 days, ${formatCount(today(data.dailyUsers))} today.`}
          />
        </Card>
        <Card>
          <DailyChart
            kind="area"
            title="Daily active users"
            unit="Active users"
            data={data.dailyActiveUsers}
            summary={`${formatCount(auth.mau)} active in the last 30 days, ${formatCount(today(data.dailyActiveUsers))} today.`}
          />
        </Card>

        <Card title="Users by country" description="Where users signed up from, when it is known.">
          {countries.length > 0 ? (
            <BarList label="Users by country" items={countries} />
          ) : (
            <p className="muted">No user has a known country yet.</p>
          )}
        </Card>
        <Card title="Sign-in methods" description="The ways users can sign in, by number of users.">
          {data.loginMethods.length > 0 ? (
            <SignInMethods methods={data.loginMethods} />
          ) : (
            <p className="muted">No user has a way to sign in yet.</p>
          )}
        </Card>

        <Card title="Recently signed up">
          <RecentUsers
            label="Recently signed up"
            projectId={projectId}
            users={data.recentlyRegistered.slice(0, RECENT)}
            when={(user) => ({ verb: "Signed up", at: user.signedUpAt })}
          />
          <Link className="overview-more" to={`/projects/${projectId}/users`}>
            All users
          </Link>
        </Card>
        <Card title="Recently active">
          {data.recentlyActive.length > 0 ? (
            <RecentUsers
              label="Recently active"
              projectId={projectId}
              users={data.recentlyActive.slice(0, RECENT)}
              when={(user) => ({ verb: "Active", at: user.lastActiveAt })}
            />
          ) : (
            <p className="muted">No one has been active yet.</p>
          )}
        </Card>
      </div>
    </div>
  );
}

function Stat({ label, value, note, primary }: { label: string; value: number; note?: string; primary?: boolean }) {
  return (
    <div className={primary ? "stat-tile stat-tile-primary" : "stat-tile"}>
      <dt>{label}</dt>
      <dd>
        {formatCount(value)}
        {note ? <span className="muted small">{note}</span> : null}
      </dd>
    </div>
  );
}

function NoUsersYet({ projectId }: { projectId: string }) {
  return (
    <Card>
      <Empty>
        <h2>No users yet</h2>
        <p className="muted">
          When people sign up in your app, this page shows how many there are, when they came, where from and how they sign in.
        </p>
        <p className="overview-empty-actions">
          <Link className="button" to={`/projects/${projectId}/setup`}>
            Add Latchkey to your app
          </Link>
          <Link className="button button-secondary" to={`/projects/${projectId}/users`}>
            Create a user
          </Link>
        </p>
      </Empty>
    </Card>
  );
}
